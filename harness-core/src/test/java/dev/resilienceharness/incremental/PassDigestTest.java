package dev.resilienceharness.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.testing.TestProject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The record's digest taken from the integrity pass equals the one taken by reading every file again. */
class PassDigestTest {

    private static final String YAML = CheckRecordTest.YAML;
    private static final String PLAN = CheckRecordTest.PLAN;

    @TempDir
    Path dir;

    private HarnessConfig config;
    private Path baseline;

    @BeforeEach
    void project() throws Exception {
        config = TestProject.create(dir, YAML, "plan", "patch");
        baseline = dir.resolve("baseline.json");
        Files.writeString(baseline, "{\"findings\": []}");
    }

    private String read() throws IOException {
        return CheckRecord.inputs("engine-1", config.file(), config.cassettes(), baseline);
    }

    private PassDigest pass(Predicate<Path> part) throws IOException {
        PassDigest digest = PassDigest.begin("engine-1", config.file(), config.cassettes(), baseline);
        CassetteIntegrity.check(config, false, (file, bytes, parsed) -> { }, part, (cassette, size) -> { }, null,
                digest);
        return digest;
    }

    @Test
    void the_pass_digests_what_reading_every_file_again_digests() throws Exception {
        Path folder = config.cassettes();
        Files.writeString(folder.resolve("0000000000000000.json"), "{not json");
        Files.writeString(folder.resolve("README.txt"), "what these cassettes are");
        Files.writeString(folder.resolve(".x.json.1a2b.tmp"), "");
        Files.createDirectories(folder.resolve("folder.json"));
        Files.createDirectories(dir.resolve("elsewhere"));
        Files.writeString(dir.resolve("elsewhere/out.json"), "{}");
        Files.createSymbolicLink(folder.resolve("linked.json"), folder.resolve(PLAN));
        Files.createSymbolicLink(folder.resolve("relative.json"), Path.of(PLAN));
        Files.createSymbolicLink(folder.resolve("out.json"), dir.resolve("elsewhere/out.json"));
        Files.createSymbolicLink(folder.resolve("dangling.json"), folder.resolve("gone.json"));

        String byReading = read();
        assertEquals(byReading, pass(file -> true).inputs());
        // A shard reads only its part: the rest is digested after the pass.
        assertEquals(byReading, pass(file -> file.getFileName().toString().compareTo("c") < 0).inputs());
        assertEquals(byReading, pass(file -> false).inputs());
    }

    @Test
    void the_digest_names_the_files_and_bytes_the_pass_read_not_what_came_after() throws Exception {
        String before = read();
        PassDigest digest = pass(file -> true);
        // Changed while the rest of the check ran: the record names what was checked, and the next check runs in full.
        Files.writeString(config.cassettes().resolve(PLAN), Files.readString(config.cassettes().resolve(PLAN)) + " ");
        Files.writeString(config.cassettes().resolve("added.json"), "{}");
        String now = read();
        assertNotEquals(before, now);
        assertEquals(before, digest.inputs());
    }

    @Test
    void a_second_pass_of_the_same_check_reads_more_files_but_names_no_new_entry() throws Exception {
        String before = read();
        // A shard's own files first, then (as NeededCassettes does) the other files its scenarios need.
        PassDigest digest = pass(file -> file.getFileName().toString().startsWith("c"));
        Files.writeString(config.cassettes().resolve("added.json"), "{}");
        CassetteIntegrity.check(config, false, (file, bytes, parsed) -> { },
                file -> !file.getFileName().toString().startsWith("c"), (cassette, size) -> { }, null, digest);
        assertEquals(before, digest.inputs());
    }

    @Test
    void a_pass_of_another_folder_or_none_leaves_nothing_to_remember() throws Exception {
        PassDigest none = PassDigest.begin("engine-1", config.file(), config.cassettes(), baseline);
        assertNull(none.inputs());
        PassDigest other = PassDigest.begin("engine-1", config.file(), dir.resolve("other"), baseline);
        CassetteIntegrity.check(config, false, (file, bytes, parsed) -> { }, file -> true, (cassette, size) -> { },
                null, other);
        assertNull(other.inputs());
    }

    @Test
    void without_a_baseline_or_a_cassette_folder_the_digests_agree_too() throws Exception {
        PassDigest noBaseline = PassDigest.begin("engine-1", config.file(), config.cassettes(), null);
        CassetteIntegrity.check(config, false, (file, bytes, parsed) -> { }, file -> true, (cassette, size) -> { },
                null, noBaseline);
        String withoutBaseline = CheckRecord.inputs("engine-1", config.file(), config.cassettes(), null);
        assertEquals(withoutBaseline, noBaseline.inputs());
        assertNotEquals(read(), withoutBaseline);
        try (var files = Files.list(config.cassettes())) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(config.cassettes());
        assertEquals(read(), pass(file -> true).inputs());
    }

    @Test
    void the_pass_digests_the_tool_recordings_as_reading_them_again_does() throws Exception {
        Path tools = config.cassettes().resolve("tools");
        Files.createDirectories(tools.resolve("nested"));
        Files.writeString(tools.resolve("0123456789abcdef.json"), "{\"tool\": \"refund\", \"arguments\": {},"
                + " \"result\": \"r-1\"}");
        String before = pass(file -> true).inputs();
        assertEquals(read(), before);
        Files.writeString(tools.resolve("0123456789abcdef.json"), "{\"tool\": \"refund\", \"arguments\": {},"
                + " \"result\": \"r-2\"}");
        assertNotEquals(before, pass(file -> true).inputs(), "a remembered check is not reused on a changed recording");
        assertEquals(read(), pass(file -> true).inputs());
    }
}
