package dev.resilienceharness.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputDigestTest {

    @TempDir
    Path dir;

    private Path jar(String name, Map<String, String> entries) throws IOException {
        Path jar = dir.resolve(name);
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar))) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                ZipEntry entry = new ZipEntry(e.getKey());
                // Another build of the same classes: every entry's time differs.
                entry.setLastModifiedTime(FileTime.fromMillis(System.nanoTime()));
                out.putNextEntry(entry);
                out.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }

    private static Map<String, String> entries(String... nameAndContent) {
        Map<String, String> entries = new LinkedHashMap<>();
        for (int i = 0; i < nameAndContent.length; i += 2) {
            entries.put(nameAndContent[i], nameAndContent[i + 1]);
        }
        return entries;
    }

    @Test
    void a_jar_counts_by_what_its_entries_hold_not_when_it_was_built() throws Exception {
        String plugin = InputDigest.ofJar(jar("a.jar", entries("p/A.class", "cafe babe 1", "p/B.class", "two")));
        assertEquals(plugin, InputDigest.ofJar(jar("b.jar", entries("p/A.class", "cafe babe 1", "p/B.class", "two"))));
        assertNotEquals(plugin, InputDigest.ofJar(jar("c.jar", entries("p/A.class", "cafe babe 2", "p/B.class",
                "two"))), "one byte of a class");
        assertNotEquals(plugin, InputDigest.ofJar(jar("d.jar", entries("p/A.class", "cafe babe 1", "p/C.class",
                "two"))), "a class renamed");
        assertNotEquals(plugin, InputDigest.ofJar(jar("e.jar", entries("p/A.class", "cafe babe 1", "p/B.class",
                "two", "p/C.class", ""))), "a class added");
        assertNotEquals(plugin, InputDigest.ofJar(jar("f.jar", entries("p/A.class", "cafe babe 1"))),
                "a class removed");
    }

    @Test
    void what_is_not_a_jar_cannot_be_digested_as_one() throws Exception {
        Path text = Files.writeString(dir.resolve("plain.jar"), "not a zip file");
        assertThrows(IOException.class, () -> InputDigest.ofJar(text));
    }

    @Test
    void an_mcp_session_two_levels_down_counts_by_what_it_holds(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path session = dir.resolve("mcp/billing/checkout.json");
        java.nio.file.Files.createDirectories(session.getParent());
        java.nio.file.Files.writeString(session, "{\"version\": 1}");
        String before = InputDigest.of(dir.resolve("mcp"));
        java.nio.file.Files.writeString(session, "{\"version\": 2}");
        String after = InputDigest.of(dir.resolve("mcp"));
        org.junit.jupiter.api.Assertions.assertNotEquals(before, after, "a changed session changes mcp/'s digest");
        java.nio.file.Files.writeString(session, "{\"version\": 1}");
        assertEquals(before, InputDigest.of(dir.resolve("mcp")));
    }
}
