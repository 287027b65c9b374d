package dev.resilienceharness.cassette;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CassetteReaderTest {

    static final String PLAN = "{\n  \"request\": {\n    \"op\": \"plan\"\n  },\n  \"response\": {\n    \"content\": \"plan"
            + " done\"\n  },\n  \"timing\": {\n    \"first_token_ms\": 420,\n    \"total_ms\": 1800\n  }\n}";
    static final String PLAN_FINGERPRINT = "c06d109f908d3f58";
    private static final String SHAPE = "a cassette is {\"request\": {...}, \"response\": {...}}";

    @TempDir
    Path dir;

    Path folder;
    Path file;
    CassetteReader reader;

    @BeforeEach
    void setUp() throws IOException {
        folder = Files.createDirectories(dir.resolve("cassettes"));
        file = folder.resolve(PLAN_FINGERPRINT + ".json");
        reader = new CassetteReader(folder, VolatilePaths.of(List.of("response.id")));
    }

    private String refused(String content) {
        return refused(content.getBytes(UTF_8));
    }

    private String refused(byte[] content) {
        CassetteException e = assertThrows(CassetteException.class, () -> reader.parse(file, content));
        return e.getMessage().substring(file.toString().length());
    }

    @Test
    void reads_request_response_timing_and_fingerprint() throws Exception {
        Files.writeString(file, PLAN);
        Cassette c = reader.read(file);
        assertEquals(PLAN_FINGERPRINT, c.fingerprint());
        assertEquals("plan", c.request().get("op").asString());
        assertEquals("plan done", c.response().get("content").asString());
        assertEquals(new Timing(420L, 1800L), c.timing());
        assertEquals(file, c.file());
    }

    @Test
    void timing_is_optional_and_may_be_null() throws Exception {
        assertNull(reader.parse(file, "{\"request\": {\"op\": \"plan\"}, \"response\": 1}".getBytes(UTF_8)).timing());
        assertNull(reader.parse(file, "{\"request\": {\"op\": \"plan\"}, \"response\": 1, \"timing\": null}"
                .getBytes(UTF_8)).timing());
    }

    @Test
    void a_byte_order_mark_is_allowed() throws Exception {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] content = new byte[bom.length + PLAN.length()];
        System.arraycopy(bom, 0, content, 0, 3);
        System.arraycopy(PLAN.getBytes(UTF_8), 0, content, 3, PLAN.length());
        assertEquals(PLAN_FINGERPRINT, reader.parse(file, content).fingerprint());
    }

    @Test
    void truncated_json_names_line_and_column() {
        assertEquals(":3:14: is not valid JSON: the file ends before the JSON is complete (is it truncated?). Fix the"
                + " file, or delete it and run mvn resilience:record", refused(PLAN.substring(0, 30)));
    }

    @Test
    void an_empty_or_blank_file() {
        String want = ": is empty; " + SHAPE + ". Fix the file, or delete it and run mvn resilience:record";
        assertEquals(want, refused(""));
        assertEquals(want, refused(" \n\t\r\n"));
    }

    @Test
    void json_that_is_not_an_object() {
        assertEquals(": holds a JSON array, not an object; " + SHAPE + ". " + CassetteMessages.HINT_FIX,
                refused("[" + PLAN + "]"));
        assertEquals(": holds a JSON string, not an object; " + SHAPE + ". " + CassetteMessages.HINT_FIX,
                refused("\"plan\""));
        assertEquals(": holds a JSON null, not an object; " + SHAPE + ". " + CassetteMessages.HINT_FIX,
                refused("null"));
    }

    @Test
    void a_missing_request_or_response() {
        assertEquals(": has no \"request\"; " + SHAPE + ". " + CassetteMessages.HINT_FIX,
                refused("{\"response\": {}}"));
        assertEquals(": has no \"response\"; " + SHAPE + ". " + CassetteMessages.HINT_FIX,
                refused("{\"request\": {\"op\": \"plan\"}}"));
        assertEquals(": has a \"request\" that is a JSON array, not an object; " + SHAPE + ". "
                + CassetteMessages.HINT_FIX, refused("{\"request\": [], \"response\": {}}"));
    }

    @Test
    void a_duplicate_key_anywhere_is_refused_where_it_repeats() {
        assertEquals(":4:9: is not valid JSON: the key \"op\" appears twice in one object. "
                + CassetteMessages.HINT_FIX, refused(PLAN.replace("\"op\": \"plan\"", "\"op\": \"plan\",\n    \"op\":"
                + " \"patch\"")));
        assertEquals(":1:53: is not valid JSON: the key \"request\" appears twice in one object. "
                + CassetteMessages.HINT_FIX, refused("{\"request\": {\"op\": \"plan\"}, \"response\": 1, \"request\":"
                + " {\"op\": \"patch\"}}"));
    }

    @Test
    void trailing_content_and_lenient_json_are_refused() {
        assertEquals(":1:44: is not valid JSON: there is more content after the JSON object. "
                + CassetteMessages.HINT_FIX, refused("{\"request\": {\"op\": \"plan\"}, \"response\": 1} {}"));
        assertEquals(":1:44: is not valid JSON: NaN and Infinity are not JSON numbers. " + CassetteMessages.HINT_FIX,
                refused("{\"request\": {\"op\": \"plan\"}, \"response\": NaN}"));
        String comment = refused("{\"request\": {\"op\": \"plan\"}, // note\n \"response\": 1}");
        assertEquals(":1:29: is not valid JSON: JSON allows no comments. " + CassetteMessages.HINT_FIX, comment);
    }

    @Test
    void a_number_beyond_the_double_range_names_its_path() {
        assertEquals(": request.messages[1].temperature holds a number beyond the range of a double, which has no JSON"
                + " form (infinity). " + CassetteMessages.HINT_FIX, refused("{\"request\": {\"messages\": [1,"
                + " {\"temperature\": 1e999}]}, \"response\": 1}"));
        assertEquals(": response.usage holds a number beyond the range of a double, which has no JSON form (infinity)."
                + " " + CassetteMessages.HINT_FIX, refused("{\"request\": {}, \"response\": {\"usage\": -1e400}}"));
    }

    @Test
    void timing_must_be_an_object_of_non_negative_numbers() {
        String head = "{\"request\": {\"op\": \"plan\"}, \"response\": 1, \"timing\": ";
        assertEquals(": has a \"timing\" that is a JSON number, not an object like {\"first_token_ms\": 420, \"total_ms\":"
                + " 1800}. " + CassetteMessages.HINT_FIX, refused(head + "420}"));
        assertEquals(": timing.first_token_ms is -420; expected a number of milliseconds, 0 or more. "
                + CassetteMessages.HINT_FIX, refused(head + "{\"first_token_ms\": -420}}"));
        assertEquals(": timing.total_ms is a JSON string; expected a number of milliseconds, 0 or more. "
                + CassetteMessages.HINT_FIX, refused(head + "{\"total_ms\": \"1800\"}}"));
    }

    @Test
    void timing_samples_are_a_list_of_timings() throws Exception {
        String head = "{\"request\": {\"op\": \"plan\"}, \"response\": 1, \"timing\": {\"total_ms\": 5, \"samples\": ";
        assertEquals(List.of(new Timing(null, 5L), new Timing(3L, 9L)),
                reader.parse(file, (head + "[{\"total_ms\": 5}, {\"first_token_ms\": 3, \"total_ms\": 9}]}}")
                        .getBytes(UTF_8)).timing().samples());
        assertEquals(": timing.samples is a JSON object; expected a list of {first_token_ms, total_ms} objects. "
                + CassetteMessages.HINT_FIX, refused(head + "{}}}"));
        assertEquals(": timing.samples[1] is a JSON number; expected a list of {first_token_ms, total_ms} objects. "
                + CassetteMessages.HINT_FIX, refused(head + "[{}, 3]}}"));
        assertEquals(": timing.samples[0].total_ms is -1; expected a number of milliseconds, 0 or more. "
                + CassetteMessages.HINT_FIX, refused(head + "[{\"total_ms\": -1}]}}"));
    }

    @Test
    void recorded_at_is_an_optional_utc_time() throws Exception {
        String head = "{\"request\": {\"op\": \"plan\"}, \"response\": 1";
        assertNull(reader.parse(file, (head + "}").getBytes(UTF_8)).recordedAt());
        assertEquals(java.time.Instant.parse("2026-11-02T09:30:00Z"), reader.parse(file,
                (head + ", \"recorded_at\": \"2026-11-02T09:30:00Z\"}").getBytes(UTF_8)).recordedAt());
        assertEquals(": recorded_at is 'last week'; expected an ISO-8601 UTC time such as 2026-01-01T00:00:00Z. "
                + CassetteMessages.HINT_FIX, refused(head + ", \"recorded_at\": \"last week\"}"));
        assertEquals(": recorded_at is a JSON number; expected an ISO-8601 UTC time such as 2026-01-01T00:00:00Z. "
                + CassetteMessages.HINT_FIX, refused(head + ", \"recorded_at\": 1767225600}"));
    }

    @Test
    void a_stream_keeps_its_events_and_the_response_stays_the_answer() throws Exception {
        Cassette c = reader.parse(file, ("{\"request\": {\"op\": \"plan\"}, \"response\": {\"content\": \"ab\"},"
                + " \"stream\": {\"events\": [{\"at_ms\": 180, \"data\": \"{}\"},"
                + " {\"at_ms\": 180, \"event\": \"ping\", \"data\": \"[DONE]\"}]}}").getBytes(UTF_8));
        assertEquals(List.of(new StreamEvent(180, "{}"), new StreamEvent(180, "ping", "[DONE]")), c.stream().events());
        assertEquals(PLAN_FINGERPRINT, c.fingerprint(), "the stream is not part of the fingerprint");
        assertNull(reader.parse(file, PLAN.getBytes(UTF_8)).stream());
    }

    @Test
    void a_stream_is_read_strictly() {
        String head = "{\"request\": {\"op\": \"plan\"}, \"response\": 1, \"stream\": ";
        assertEquals(": stream.events[1].at_ms is -5; expected a whole number of milliseconds since the request, 0 or"
                + " more. " + CassetteMessages.HINT_FIX, refused(head + "{\"events\": [{\"at_ms\": 1, \"data\": \"x\"},"
                + " {\"at_ms\": -5, \"data\": \"y\"}]}}"));
        assertEquals(": stream.events[0].at_ms is a JSON string; expected a whole number of milliseconds since the"
                + " request, 0 or more. " + CassetteMessages.HINT_FIX,
                refused(head + "{\"events\": [{\"at_ms\": \"1\", \"data\": \"x\"}]}}"));
        assertEquals(": stream.events[1].at_ms is 3, earlier than the event before it (9 ms); events are kept in the"
                + " order they arrived. " + CassetteMessages.HINT_FIX, refused(head + "{\"events\": [{\"at_ms\": 9,"
                + " \"data\": \"x\"}, {\"at_ms\": 3, \"data\": \"y\"}]}}"));
        assertEquals(": stream.events[0].data is missing; expected the event's data as a string (compact JSON or"
                + " [DONE]). " + CassetteMessages.HINT_FIX, refused(head + "{\"events\": [{\"at_ms\": 9}]}}"));
        assertEquals(": stream.events is missing; expected a list of {\"at_ms\": 180, \"data\": \"...\"}. "
                + CassetteMessages.HINT_FIX, refused(head + "{}}"));
        assertTrue(refused(head + "[]}").startsWith(": has a \"stream\" that is a JSON array"));
        assertTrue(refused(head + "{\"events\": [{\"at_ms\": 1, \"data\": \"x\", \"at\": 2}]}}")
                .startsWith(": has an unknown key stream.events[0].at;"));
    }

    @Test
    void a_timing_beyond_any_long_is_refused_not_thrown() {
        // Found by CassetteReaderPropertiesTest: Jackson's asDouble throws for an integer beyond the double range.
        String head = "{\"request\": {\"op\": \"plan\"}, \"response\": 1, \"timing\": ";
        assertEquals(": timing.first_token_ms is 99999999999999999999...9999999999 (400 characters); expected a number"
                + " of milliseconds, 0 or more. " + CassetteMessages.HINT_FIX,
                refused(head + "{\"first_token_ms\": " + "9".repeat(400) + "}}"));
        assertEquals(": timing.total_ms is 1.0E300; expected a number of milliseconds, 0 or more. "
                + CassetteMessages.HINT_FIX, refused(head + "{\"total_ms\": 1e300}}"));
        assertEquals(": timing.total_ms holds a number beyond the range of a double, which has no JSON form (infinity). "
                + CassetteMessages.HINT_FIX, refused(head + "{\"total_ms\": 1e400}}"));
    }

    @Test
    void bytes_that_are_not_utf8_name_line_column_and_byte() {
        byte[] latin1 = "{\n  \"request\": {\"op\": \"caf\u00e9\"},\n  \"response\": 1\n}".getBytes(
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertEquals(":2:25: is not UTF-8: byte 0xe9 cannot be decoded here. Save it as UTF-8, or delete it and run"
                + " mvn resilience:record", refused(latin1));
    }

    @Test
    void utf16_is_not_guessed() {
        String message = refused(PLAN.getBytes(java.nio.charset.StandardCharsets.UTF_16LE));
        assertEquals(":1:2: is not valid JSON: Illegal character ((CTRL-CHAR, code 0)): only regular white space"
                + " (\\r, \\n, \\t) is allowed between tokens. " + CassetteMessages.HINT_FIX, message);
    }

    @Test
    void too_deep_or_too_long_numbers() {
        assertEquals(": is not valid JSON: it nests deeper than 500 levels. " + CassetteMessages.HINT_FIX,
                refused("{\"request\": {\"op\": " + "[".repeat(600) + "]".repeat(600) + "}, \"response\": 1}"));
        assertEquals(": is not valid JSON: a number is longer than 4300 digits. " + CassetteMessages.HINT_FIX,
                refused("{\"request\": {\"op\": 1" + "0".repeat(5000) + "}, \"response\": 1}"));
    }

    @Test
    void a_tool_schema_that_cannot_be_used_is_a_cassette_error() {
        String cyclic = "{\"request\": {\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"t\","
                + " \"parameters\": {\"$ref\": \"#\"}}}]}, \"response\": {}}";
        assertEquals(": has a tool schema that cannot be used: request.tools[0].function.parameters: the schema of"
                + " tool 't' refers to itself in a cycle ($ref at # leads back to #); a $ref must lead to a schema that"
                + " checks something. " + CassetteMessages.HINT_FIX, refused(cyclic));
        String wrongType = cyclic.replace("{\"$ref\": \"#\"}", "{\"type\": 12}");
        assertTrue(refused(wrongType).startsWith(": has a tool schema that cannot be used: request.tools[0].function"
                + ".parameters: the schema of tool 't' is not a valid JSON Schema: "), refused(wrongType));
        String file = cyclic.replace("{\"$ref\": \"#\"}", "{\"$ref\": \"file:///etc/passwd\"}");
        assertTrue(refused(file).contains("refers outside itself ($ref: file:///etc/passwd)"), refused(file));
    }

    @Test
    void jackson_internals_never_reach_the_message() {
        for (String broken : List.of("{", "{\"request\"", "{\"request\": {\"op\": tru}", "{'request': 1}",
                "{\"a\": \"\u0001\"}", "{\"request\": {\"op\": \"plan\"},}", "\u0000", "{\"request\": 01}")) {
            String message = refused(broken);
            for (String internal : List.of("[Source", "REDACTED", "`", "Feature", "\n", "\u0000", "\u0001")) {
                assertEquals(-1, message.indexOf(internal), internal + " in " + message);
            }
        }
    }

    @Test
    void a_symlink_out_of_the_folder_is_not_followed() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside")).resolve("secret.json");
        Files.writeString(outside, PLAN);
        Files.createSymbolicLink(file, outside);
        CassetteException e = assertThrows(CassetteException.class, () -> reader.read(file));
        assertEquals(file + ": is a symbolic link leading out of the cassette folder " + folder + "; it was not"
                + " followed. Replace the link with the cassette file itself", e.getMessage());
        Files.createSymbolicLink(folder.resolve("relative.json"), Path.of("..", "outside", "secret.json"));
        assertThrows(CassetteException.class, () -> reader.read(folder.resolve("relative.json")));
    }

    @Test
    void a_symlink_to_a_pipe_outside_neither_blocks_nor_reads() throws Exception {
        Path fifo = Files.createDirectories(dir.resolve("outside")).resolve("pipe");
        assumeTrue(mkfifo(fifo), "mkfifo is not available");
        Files.createSymbolicLink(file, fifo);
        CassetteException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(CassetteException.class, () -> reader.read(file)));
        assertEquals(file + ": is a symbolic link leading out of the cassette folder " + folder + "; it was not"
                + " followed. Replace the link with the cassette file itself", e.getMessage());
    }

    @Test
    void a_pipe_in_the_folder_is_refused_without_opening_it() throws Exception {
        assumeTrue(mkfifo(file), "mkfifo is not available");
        CassetteException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(CassetteException.class, () -> reader.read(file)));
        assertEquals(file + ": is not a regular file (a device, pipe or socket). Remove it from the cassette folder",
                e.getMessage());
    }

    @Test
    void a_symlink_inside_the_folder_is_followed() throws Exception {
        Path real = folder.resolve("real.txt");
        Files.writeString(real, PLAN);
        Files.createSymbolicLink(file, Path.of("real.txt"));
        assertEquals(PLAN_FINGERPRINT, reader.read(file).fingerprint());
    }

    @Test
    void a_dangling_symlink_and_a_folder_are_not_cassettes() throws Exception {
        Files.createSymbolicLink(file, folder.resolve("nowhere.json"));
        CassetteException dangling = assertThrows(CassetteException.class, () -> reader.read(file));
        assertEquals(file + ": is a symbolic link to a file that does not exist. Remove it from the cassette folder",
                dangling.getMessage());
        Path sub = Files.createDirectory(folder.resolve("sub.json"));
        CassetteException directory = assertThrows(CassetteException.class, () -> reader.read(sub));
        assertEquals(sub + ": is a folder, not a cassette file. Remove it from the cassette folder",
                directory.getMessage());
    }

    @Test
    void a_file_over_16_mib_is_refused_by_its_size_without_being_read() throws Exception {
        try (RandomAccessFile huge = new RandomAccessFile(file.toFile(), "rw")) {
            huge.setLength(CassetteReader.MAX_BYTES + 1);
        }
        CassetteException e = assertThrows(CassetteException.class, () -> reader.read(file));
        assertEquals(file + ": is 16777217 bytes, over the 16777216-byte (16 MiB) limit for a cassette (no real"
                + " response is that large); it was not read. Delete it and run mvn resilience:record", e.getMessage());
        assertEquals(0, e.line());
    }

    @Test
    void a_file_of_exactly_16_mib_is_read() throws Exception {
        String head = "{\"request\": {\"op\": \"plan\"}, \"response\": \"";
        String tail = "\"}";
        byte[] content = new byte[(int) CassetteReader.MAX_BYTES];
        java.util.Arrays.fill(content, (byte) 'x');
        System.arraycopy(head.getBytes(UTF_8), 0, content, 0, head.length());
        System.arraycopy(tail.getBytes(UTF_8), 0, content, content.length - tail.length(), tail.length());
        Files.write(file, content);
        assertEquals(PLAN_FINGERPRINT, reader.read(file).fingerprint());
    }

    @Test
    void the_exception_carries_location_problem_and_hint() {
        CassetteException e = assertThrows(CassetteException.class,
                () -> reader.parse(file, PLAN.substring(0, 30).getBytes(UTF_8)));
        assertEquals(file, e.file());
        assertEquals(3, e.line());
        assertEquals(14, e.column());
        assertEquals(file + ":3:14", e.location());
        assertEquals("is not valid JSON: the file ends before the JSON is complete (is it truncated?)", e.problem());
        assertEquals(CassetteMessages.HINT_FIX, e.hint());
    }

    static boolean mkfifo(Path path) {
        try {
            Process p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.exists(path);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
