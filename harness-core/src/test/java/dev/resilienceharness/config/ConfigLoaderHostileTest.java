package dev.resilienceharness.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.resilienceharness.files.BoundedFileTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files a goal is handed that are not what they should be: each is named, none is quoted, none stalls the build. */
class ConfigLoaderHostileTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private static final String OWN = """
            version: 1
            policy: {max_total_wait: 1s}
            requests_from: shared.yaml
            scenarios:
              - name: s
                ops: [plan]
            """;

    private static final String NETRC = "machine api.example.test login ci-bot password hunter2-secret\n";

    @TempDir
    Path dir;

    private String error(Path yaml) {
        return assertTimeoutPreemptively(BOUND, () -> assertThrows(ConfigException.class,
                () -> ConfigLoader.load(yaml))).getMessage();
    }

    private String errorWith(String shared, String yaml) throws Exception {
        Files.writeString(dir.resolve("shared.yaml"), shared);
        return error(Files.writeString(dir.resolve("resilience.yaml"), yaml));
    }

    @Test
    void a_file_that_is_not_yaml_is_named_and_not_quoted() throws Exception {
        Path netrc = Files.writeString(dir.resolve(".netrc"), NETRC);
        String message = error(netrc);
        assertEquals(netrc + ":1:1: the top level must be a mapping with keys such as version, policy and scenarios,"
                + " got a text", message);
        String shared = errorWith(NETRC, OWN);
        assertEquals(dir.resolve("shared.yaml") + ":1:1: a file named by requests_from must be a mapping with"
                + " requests:, got a text", shared);
        for (String leak : new String[] {"hunter2", "ci-bot", "machine"}) {
            assertFalse(message.contains(leak) || shared.contains(leak), leak);
        }
    }

    @Test
    void a_pipe_or_a_device_named_as_the_config_is_refused_without_being_opened() throws Exception {
        Path fifo = dir.resolve("resilience.yaml");
        assumeTrue(BoundedFileTest.mkfifo(fifo), "mkfifo is not available");
        assertEquals(fifo + ": cannot read the file: it is a named pipe (fifo), not a regular file; it was not opened",
                error(fifo));
        Path zero = Files.createSymbolicLink(dir.resolve("zero.yaml"), Path.of("/dev/zero"));
        assertEquals(zero + ": cannot read the file: it is a character device, not a regular file; it was not"
                + " opened", error(zero));
    }

    @Test
    void requests_from_a_pipe_says_what_it_is() throws Exception {
        Path fifo = dir.resolve("shared.yaml");
        assumeTrue(BoundedFileTest.mkfifo(fifo), "mkfifo is not available");
        Path yaml = Files.writeString(dir.resolve("resilience.yaml"), OWN);
        assertEquals(yaml + ":3:16: requests_from: " + fifo + " is a named pipe (fifo), not a regular file; it was"
                + " not opened; name a yaml with requests:, relative to this file", error(yaml));
    }

    @Test
    void a_tool_schema_that_cannot_be_used_is_a_config_error_at_its_request() throws Exception {
        Path yaml = Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                policy: {max_total_wait: 1s}
                requests:
                  plan: {model: m, tools: [{type: function, function: {name: t, parameters: {$ref: '#'}}}]}
                scenarios:
                  - name: s
                    ops: [plan]
                """);
        assertEquals(yaml + ":4:9: requests.plan.tools[0].function.parameters: the schema of tool 't' refers to"
                + " itself in a cycle ($ref at # leads back to #); a $ref must lead to a schema that checks something;"
                + " a tool schema must be a valid JSON Schema whose references stay inside it", error(yaml));
    }

    @Test
    void a_baseline_inside_the_cassette_folder_is_refused() throws Exception {
        Path yaml = Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                policy: {max_total_wait: 1s}
                redaction:
                  baseline: cassettes/0000000000000000.json
                scenarios:
                  - name: s
                    ops: [plan]
                """);
        assertEquals(yaml + ":4:13: redaction.baseline: the baseline is inside the cassette folder "
                + dir.resolve("cassettes") + ", where every .json file is read as a cassette; keep it beside the"
                + " yaml, such as secrets-baseline.json", error(yaml));
    }

    @Test
    void a_large_anchored_text_aliased_often_is_refused_at_the_alias_by_its_size() throws Exception {
        StringBuilder yaml = new StringBuilder("version: 1\npolicy: {max_total_wait: 1s}\nrequests:\n  plan:\n"
                + "    model: m\n    big: &big " + "x".repeat(500_000) + "\n    copies:\n");
        for (int i = 0; i < 3000; i++) {
            yaml.append("      - *big\n");
        }
        yaml.append("scenarios:\n  - name: s\n    ops: [plan]\n");
        Path file = Files.writeString(dir.resolve("resilience.yaml"), yaml);
        String message = error(file);
        assertEquals(file + ":16:9: requests.plan.copies[8]: the aliases expand to more than 4194304 characters of"
                + " text, which looks like an alias bomb (no heap holds what they stand for); write the values out"
                + " instead", message);
    }

    @Test
    void a_huge_unknown_key_is_cut_in_the_message() {
        String key = "k".repeat(3_000_000);
        String message = assertThrows(ConfigException.class, () -> ConfigLoader.load(dir.resolve("r.yaml"),
                ("version: 1\n" + key + ": 1\n").getBytes(UTF_8))).getMessage();
        assertTrue(message.length() < 1000, "a message of " + message.length() + " characters");
        assertTrue(message.startsWith(dir.resolve("r.yaml") + ":2:1: " + "k".repeat(60) + "...: unknown key '"),
                message.substring(0, 200));
    }
}
