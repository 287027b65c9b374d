package dev.resilienceharness.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForkedCheckTest {

    @Test
    void every_text_crosses_on_one_line_and_comes_back_the_same() {
        for (String text : List.of("", "plain", "two\nlines", "crlf\r\nend", "back\\slash", "\\n is not a line feed",
                "trailing\\", "\\\\\n\\r\r", "caf\u00e9 \u20ac \ud83d\ude00", "\u0001resilience:info inside")) {
            String line = ForkedCheck.escape(text);
            assertTrue(line.indexOf('\n') < 0 && line.indexOf('\r') < 0, line);
            assertEquals(text, ForkedCheck.unescape(line));
        }
    }

    @Test
    void a_request_reads_back_as_it_was_written(@TempDir Path dir) throws IOException {
        CheckRun.Options options = new CheckRun.Options(dir.resolve("a folder/resilience.yaml"),
                dir.resolve("target/check-record.json"), true, false, true, "failOnOrphans=true;runs=3;abc",
                dir.resolve("cassettes"), null, "0123abcd");
        ForkedCheck.Request request = new ForkedCheck.Request(options, "com.acme.Loop", "2/8", 3,
                List.of(dir.resolve("classes").toString(), dir.resolve("lib/a b.jar").toString()),
                Map.of("greeting", "hello = world: yes\nand more", "empty", ""), true);
        Path file = dir.resolve("request.properties");
        request.write(file);
        assertEquals(request, ForkedCheck.Request.read(file));

        CheckRun.Options bare = new CheckRun.Options(dir.resolve("resilience.yaml"), dir.resolve("record.json"),
                false, true, false, null, null, null, null);
        ForkedCheck.Request plain = new ForkedCheck.Request(bare, null, null, 2, List.of(), Map.of(), false);
        plain.write(file);
        assertEquals(plain, ForkedCheck.Request.read(file));
    }

    @Test
    void the_forked_jvm_sends_its_error_with_the_yaml_it_names(@TempDir Path dir) {
        Path yaml = dir.resolve("resilience.yaml");
        Lines log = new Lines();
        MojoExecutionException e = assertThrows(MojoExecutionException.class,
                () -> ForkedCheck.launch(log, java(), List.of(), classpath(), request(yaml)));
        assertTrue(e.getMessage().contains(yaml.toString()), e.getMessage());
        // It loaded nothing, so it logged nothing but how it was started and ended.
        assertEquals(List.of(), log.lines.stream().filter(l -> !l.startsWith("debug ")).toList());
        assertTrue(log.lines.get(0).startsWith("debug Checking in a JVM of its own: " + java()), log.lines::toString);
    }

    @Test
    void a_jvm_that_ends_without_a_verdict_is_an_error_after_its_output(@TempDir Path dir) {
        Lines log = new Lines();
        // -version prints the version and ends the JVM before the main class runs.
        MojoExecutionException e = assertThrows(MojoExecutionException.class,
                () -> ForkedCheck.launch(log, java(), List.of("-version"), classpath(),
                        request(dir.resolve("resilience.yaml"))));
        assertTrue(e.getMessage().startsWith("resilience:check: its JVM (" + java() + " -version "), e.getMessage());
        assertTrue(e.getMessage().contains(") ended with exit code 0 before it gave a verdict; its output is above."
                + " Mend resilience.fork.jvmArgs, or check in Maven's JVM with -Dresilience.fork=false"),
                e.getMessage());
        assertTrue(log.lines.stream().anyMatch(l -> l.startsWith("info ") && l.contains("version")), log.lines::toString);
    }

    @Test
    void a_jvm_out_of_memory_says_how_to_give_it_more(@TempDir Path dir) throws IOException {
        // 30,000 requests, about 3 MB of yaml: more than 24 MB of heap once loaded.
        StringBuilder yaml = new StringBuilder("version: 1\nrequests:\n");
        for (int i = 0; i < 30_000; i++) {
            yaml.append("  op").append(i).append(": {model: gpt-4o, messages: [{role: user, content: message ")
                    .append(i).append(" with some words in it}]}\n");
        }
        Path file = dir.resolve("resilience.yaml");
        Files.writeString(file, yaml);
        Lines log = new Lines();
        MojoExecutionException e = assertThrows(MojoExecutionException.class,
                () -> ForkedCheck.launch(log, java(), List.of("-Xmx24m"), classpath(), request(file)));
        assertEquals("resilience:check ran out of memory in its JVM (Java heap space); give it more with"
                + " -Dresilience.fork.jvmArgs, such as \"" + ForkedCheck.DEFAULT_JVM_ARGS + " -Xmx2g\"",
                e.getMessage());
    }

    @Test
    void jvm_options_are_split_on_spaces() {
        assertEquals(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC", "-Xmn96m", "-XX:MaxHeapFreeRatio=20",
                "-XX:MinHeapFreeRatio=10"),
                ForkedCheck.splitArgs(ForkedCheck.DEFAULT_JVM_ARGS));
        assertEquals(List.of("-Xmx1g", "-Da=b"), ForkedCheck.splitArgs("  -Xmx1g \t -Da=b "));
        assertEquals(List.of(), ForkedCheck.splitArgs(" "));
        assertEquals(List.of(), ForkedCheck.splitArgs(null));
    }

    private static ForkedCheck.Request request(Path yaml) {
        CheckRun.Options options = new CheckRun.Options(yaml, yaml.resolveSibling("record.json"), false, true, false,
                null, null, null, null);
        return new ForkedCheck.Request(options, null, null, 2, List.of(), Map.of(), false);
    }

    private static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** The tests' own classpath: the plugin's classes and everything they need. */
    private static List<String> classpath() {
        return Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    }

    /** A log that keeps its lines as {@code "level text"}. */
    private static final class Lines extends LineLog {

        final List<String> lines = new ArrayList<>();

        @Override
        synchronized void line(String level, String text) {
            lines.add(level + " " + text);
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }
    }
}
