package dev.resilienceharness.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.testing.TestProject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckRecordTest {

    /** Two ops of a scenario, each with its cassette: shared with {@link PassDigestTest}. */
    static final String YAML = """
            version: 1
            policy:
              max_total_wait: 15s
            scenarios:
              - name: plan-then-patch
                ops: [plan, patch]
            """;
    static final String PLAN = "c06d109f908d3f58.json";

    @TempDir
    Path dir;

    private HarnessConfig config;

    @BeforeEach
    void project() throws Exception {
        config = TestProject.create(dir, YAML, "plan", "patch");
    }

    private String inputs() throws IOException {
        return inputs("engine-1");
    }

    private String inputs(String identity) throws IOException {
        return CheckRecord.inputs(identity, config.file(), config.cassettes(), dir.resolve("baseline.json"));
    }

    @Test
    void the_digest_is_the_same_while_nothing_changes() throws Exception {
        assertEquals(64, inputs().length());
        assertEquals(inputs(), inputs());
    }

    @Test
    void a_cassette_changed_to_the_same_size_with_its_old_timestamp_changes_the_digest() throws Exception {
        String before = inputs();
        Path plan = config.cassettes().resolve(PLAN);
        FileTime stamp = Files.getLastModifiedTime(plan);
        String text = Files.readString(plan);
        int at = text.indexOf("\"plan\"", text.indexOf("\"done\""));
        assertTrue(at > 0, text);
        Files.writeString(plan, text.substring(0, at) + "\"PLAN\"" + text.substring(at + 6));
        Files.setLastModifiedTime(plan, stamp);
        assertEquals(text.length(), Files.size(plan));
        assertNotEquals(before, inputs());
    }

    @Test
    void every_input_counts() throws Exception {
        String before = inputs();
        assertNotEquals(before, inputs("engine-2"), "the engine or an option");
        Files.writeString(config.file(), Files.readString(config.file()) + "# a comment\n");
        String yamlEdited = inputs();
        assertNotEquals(before, yamlEdited, "the yaml");
        Files.writeString(config.cassettes().resolve(".x.json.1a2b.tmp"), "");
        String leftover = inputs();
        assertNotEquals(yamlEdited, leftover, "a file left over from an interrupted recording");
        Files.writeString(dir.resolve("baseline.json"), "{}");
        String baseline = inputs();
        assertNotEquals(leftover, baseline, "the baseline appearing");
        Files.delete(config.cassettes().resolve(PLAN));
        assertNotEquals(baseline, inputs(), "a cassette deleted");
    }

    @Test
    void a_link_counts_by_what_it_leads_to() throws Exception {
        Path real = Files.createDirectories(dir.resolve("elsewhere")).resolve("real.json");
        Files.writeString(real, "{}");
        Path link = config.cassettes().resolve("linked.json");
        try {
            Files.createSymbolicLink(link, real);
        } catch (UnsupportedOperationException | IOException e) {
            assumeTrue(false, "no symbolic links here: " + e);
        }
        String before = inputs();
        Files.writeString(real, "{\"request\": {}}");
        assertNotEquals(before, inputs(), "the file the link leads to changed");
        String edited = inputs();
        Files.delete(real);
        assertNotEquals(edited, inputs(), "the link now leads nowhere");
    }

    @Test
    void a_named_pipe_among_the_cassettes_is_never_opened() throws Exception {
        Path pipe = config.cassettes().resolve("pipe.json");
        boolean made;
        try {
            made = new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor() == 0;
        } catch (IOException e) {
            made = false;
        }
        assumeTrue(made && Files.exists(pipe), "mkfifo is not available");
        // Opening the pipe to read it would block until a writer came: the digest must finish without one.
        String digest = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> inputs());
        assertEquals(digest, inputs());
    }

    @Test
    void a_renamed_cassette_changes_the_digest() throws Exception {
        String before = inputs();
        Path plan = config.cassettes().resolve(PLAN);
        Files.move(plan, plan.resolveSibling("0" + PLAN));
        assertNotEquals(before, inputs());
    }

    @Test
    void a_record_reads_back_as_written_violations_and_warnings_included() throws Exception {
        CheckRecord record = new CheckRecord("abc", dir.resolve("cassettes"), null, 2, 1, 2, 0,
                List.of("orphan cassette: x.json"),
                List.of(new Violation(Invariant.BUDGET, "plan-then-patch", "plan", "3 calls", "5 calls",
                        "the loop spent more calls than the budget allows", "Lower max_attempts"),
                        new Violation(Invariant.SECRETS, "D/c.json", null, null, null, "an API key “sk-…”", null)));
        Path file = dir.resolve("target/resilience/check-record.json");
        record.write(file);
        assertEquals(record, CheckRecord.read(file));
        CheckRecord withBaseline = new CheckRecord("abc", dir, dir.resolve("b.json"), 0, 0, 0, 3, List.of(),
                List.of());
        withBaseline.write(file);
        assertEquals(withBaseline, CheckRecord.read(file));
    }

    @Test
    void no_record_or_one_of_another_format_is_none_and_a_damaged_one_is_an_error() throws Exception {
        Path file = dir.resolve("check-record.json");
        assertNull(CheckRecord.read(file));
        Files.writeString(file, "{\"format\": 99}");
        assertNull(CheckRecord.read(file));
        Files.writeString(file, "{\"format\": 1, \"inputs\": ", StandardCharsets.UTF_8);
        IOException e = assertThrows(IOException.class, () -> CheckRecord.read(file));
        assertTrue(e.getMessage().startsWith("not a check record: "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line for the warning: " + e.getMessage());
        Files.writeString(file, "{\"format\": 1, \"inputs\": \"x\"}", StandardCharsets.UTF_8);
        e = assertThrows(IOException.class, () -> CheckRecord.read(file));
        assertEquals("not a check record: a field is missing", e.getMessage());
        Files.writeString(file, "{\"format\": 1, \"inputs\": 7}", StandardCharsets.UTF_8);
        assertThrows(IOException.class, () -> CheckRecord.read(file));
    }

    @Test
    void a_tool_recording_changed_changes_the_digest() throws Exception {
        Path tools = config.cassettes().resolve("tools");
        Files.createDirectories(tools);
        String empty = inputs();
        Path recording = tools.resolve("0123456789abcdef.json");
        Files.writeString(recording, "{\"tool\": \"refund\", \"arguments\": {}, \"result\": \"r-1\"}");
        String recorded = inputs();
        assertNotEquals(empty, recorded, "a tool recording added");
        assertEquals(recorded, inputs());
        Files.writeString(recording, "{\"tool\": \"refund\", \"arguments\": {}, \"result\": \"r-2\"}");
        String changed = inputs();
        assertNotEquals(recorded, changed, "a tool recording changed to the same size");
        Files.move(recording, tools.resolve("fedcba9876543210.json"));
        assertNotEquals(changed, inputs(), "a tool recording renamed");
    }
}
