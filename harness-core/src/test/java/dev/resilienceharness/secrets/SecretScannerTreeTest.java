package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.resilienceharness.json.Json;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A scan handed the tree the cassette reader already parsed walks it instead of parsing the bytes again: it must
 * find exactly what the scan of the bytes finds, sites included, on every document the scanner's tests know.
 */
class SecretScannerTreeTest {

    private static final Path FILE = Path.of("cassettes/tree.json");

    /** Documents whose findings depend on where a string sits: names, headers, arrays, JSON inside strings. */
    private static final List<String> SHAPES = List.of(
            "{\"request\": {\"headers\": {\"Authorization\": \"Bearer abcdefghijklmnopqrstuvwx\"}}, \"response\": {}}",
            "{\"request\": {\"headers\": [{\"x-api-key\": \"k3y-not-in-a-headers-object\"}]}, \"response\": {}}",
            "{\"request\": {\"sk-proj-FAKEabcdefghijklmnopqrstuvwxyz0123456789ABCD\": 1}, \"response\": {}}",
            "{\"request\": {}, \"response\": {\"choices\": [{\"message\": {\"tool_calls\": [{\"function\": {"
                    + "\"arguments\": \"{\\\"api_key\\\": \\\"Zq8xV2mN4pL7rT1wY6uB3cE9\\\"}\"}}]}}]}}",
            "{\"request\": {\"password\": [\"hunter2-but-longer-Zq8xV2mN\", [\"Zq8xV2mN4pL7rT1wY6uB3cE9\"]]},"
                    + " \"response\": {\"note\": \"{\\\"headers\\\": {\\\"Authorization\\\": \\\"Basic dXNlcjpwYXNz\\\"}}\"}}",
            "{\"request\": {\"user\": \"someone@example.org\"}, \"response\": {\"text\": \"nothing to see\"}}",
            "{\"request\": {\"op\": \"plan\"}, \"response\": {\"id\": \"chatcmpl-123\", \"ok\": true, \"n\": 3.5}}",
            "[\"sk-ant-api03-FAKEabcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV\"]");

    private static List<Finding> fromTree(byte[] bytes) throws MalformedJsonException {
        return new SecretScanner().scan(FILE, bytes, Json.readTree(bytes));
    }

    private static List<Finding> fromBytes(byte[] bytes) throws MalformedJsonException {
        return new SecretScanner().scan(FILE, bytes);
    }

    @Test
    void the_walk_of_the_tree_finds_what_the_scan_of_the_bytes_finds_in_the_corpus() throws Exception {
        List<Path> files;
        try (Stream<Path> listed = Files.list(folder())) {
            files = listed.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        int withFindings = 0;
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            List<Finding> expected = fromBytes(bytes);
            assertEquals(expected, fromTree(bytes), file.getFileName().toString());
            withFindings += expected.isEmpty() ? 0 : 1;
        }
        assertFalse(withFindings == 0 || withFindings == files.size(), "the corpus has both kinds of file");
    }

    @Test
    void the_walk_of_the_tree_finds_what_the_scan_of_the_bytes_finds_in_every_labelled_case() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (LabelledCorpusTest.Case c : LabelledCorpusTest.cases()) {
            byte[] bytes = LabelledCorpusTest.cassette(c);
            if (!fromBytes(bytes).equals(fromTree(bytes))) {
                wrong.add(c.id());
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void the_walk_of_the_tree_finds_what_the_scan_of_the_bytes_finds_wherever_a_string_sits() throws Exception {
        int withFindings = 0;
        for (String shape : SHAPES) {
            byte[] bytes = shape.getBytes(StandardCharsets.UTF_8);
            List<Finding> expected = fromBytes(bytes);
            assertEquals(expected, fromTree(bytes), shape);
            withFindings += expected.isEmpty() ? 0 : 1;
        }
        assertFalse(withFindings < 4, "most shapes hold a secret: " + withFindings);
    }

    @Test
    void the_walk_reaches_a_secret_as_deep_as_the_reader_nests() throws Exception {
        // 499 arrays and an object: 500 levels, as deep as the cassette reader takes.
        String deep = "[".repeat(499) + "{\"api_key\": \"Zq8xV2mN4pL7rT1wY6uB3cE9\"}" + "]".repeat(499);
        byte[] bytes = deep.getBytes(StandardCharsets.UTF_8);
        List<Finding> expected = fromBytes(bytes);
        assertFalse(expected.isEmpty());
        assertEquals(expected, fromTree(bytes));
    }

    @Test
    void without_a_tree_the_bytes_are_scanned() throws Exception {
        byte[] bytes = SHAPES.get(0).getBytes(StandardCharsets.UTF_8);
        assertEquals(fromBytes(bytes), new SecretScanner().scan(FILE, bytes, null));
        assertFalse(fromBytes(bytes).isEmpty());
    }

    private static Path folder() throws URISyntaxException {
        return Path.of(SecretScannerTreeTest.class.getResource("/secrets/corpus").toURI());
    }
}
