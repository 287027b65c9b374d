package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Five-megabyte single-line documents built to make a backtracking matcher or a rescanning loop blow up. Each
 * must finish well inside a generous bound; the bound catches a quadratic regression, it is not a speed claim
 * (throughput belongs in the benchmark).
 */
class AdversarialInputTest {

    private static final int SIZE = 5 * 1024 * 1024;
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String KEY = "sk-proj-FAKEabcdefghijklmnop0123456789";

    /** {@code unit} repeated to about five megabytes. */
    private static String repeat(String unit) {
        return unit.repeat(Math.max(1, SIZE / unit.length()));
    }

    /** A one-line cassette holding {@code value} (already JSON-escaped) under {@code key}. */
    private static byte[] document(String key, String value) {
        return ("{\"request\":{\"" + key + "\":\"" + value + "\"}}").getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, byte[]> cases() {
        Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("one long run of a", document("api_key", repeat("a")));
        cases.put("sk- repeated in one run", document("note", repeat("sk-")));
        cases.put("near-miss prefixes", document("note", repeat("sk-proj- sk-ant- AIza AKIA ghp_ gsk_ hf_ xoxb- ")));
        cases.put("short JWT-like parts", document("note", repeat("eyJaaaaaaaaaaa.eyJaaaaaaaaaaa.")));
        cases.put("unterminated PEM headers", document("note", repeat("-----BEGIN RSA PRIVATE KEY-----\\n")));
        cases.put("PEM headers and false ends", document("note", repeat("-----BEGIN PRIVATE KEY----- -----END ")));
        cases.put("empty PEM armour",
                document("note", repeat("-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----")));
        cases.put("PEM placeholders without end lines",
                document("note", repeat("-----BEGIN PRIVATE KEY-----\\nYOUR_KEY_HERE ")));
        cases.put("unsigned JWT-like parts", document("note", repeat("eyJaaaaaaaaaaa.eyJaaaaaaaaaaa. ")));
        cases.put("placeholder keys", document("note", repeat("AIzaSyABCDEFGHIJKLMNOPQRSTUVWXYZ0123456 ")));
        cases.put("keys glued to other scripts", document("note", repeat("\u00dfhf_FAKEabcdefghijklmnopqrstuvwxyzAB")));
        cases.put("counting values under a key-like name",
                manyFields("api_token", "12345678-1234-1234-1234-123456789012"));
        cases.put("at signs", document("note", repeat("a@")));
        cases.put("dotted domains without an at", document("note", repeat("a.")));
        cases.put("one at then a long domain", document("note", "x@" + repeat("a.")));
        cases.put("long local part before each at", document("note", repeat("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@b")));
        cases.put("card-like groups", document("note", repeat("4111 ")));
        cases.put("card-like dashes", document("note", repeat("4111-")));
        cases.put("percent escapes", document("url", "https://x.test/?" + repeat("%41")));
        cases.put("key-like pairs", document("note", repeat("api_key=")));
        cases.put("key-like colons", document("note", repeat("token:")));
        cases.put("schemes before pairs", document("note", repeat("token: Bearer ")));
        cases.put("basic schemes", document("note", repeat("Basic ")));
        cases.put("one huge basic token", document("auth", "Basic " + repeat("QUFB")));
        cases.put("nested brackets in a string", document("arguments", "[".repeat(SIZE / 2) + "]".repeat(SIZE / 2)));
        cases.put("many small JSON objects in a string", document("arguments", repeat("{\\\"api_key\\\":\\\"x\\\"}")));
        cases.put("the same key many times", document("note", repeat(KEY + " ")));
        cases.put("many distinct addresses", document("note", distinctAddresses()));
        cases.put("many fields", manyFields("token", "v"));
        cases.put("spaced assignments", document("note", repeat("api_key = ")));
        cases.put("elements and calls", document("note", repeat("<token>(\\\"token\\\", ")));
        cases.put("base64 of text, run after run", document("note", repeat(java.util.Base64.getEncoder()
                .encodeToString("api_key=FAKEaB3dE5gH7jK9mN1pQ3rS and more".getBytes(StandardCharsets.UTF_8)) + " ")));
        cases.put("one huge base64 run", document("note", repeat("c2stcHJvai1G")));
        cases.put("hex of text", document("note", repeat("6170695f6b65793d46414b4561423364 ")));
        return cases;
    }

    private static String distinctAddresses() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() < SIZE; i++) {
            sb.append("fake").append(i).append("@mailbox.test ");
        }
        return sb.toString();
    }

    /** A one-line object of about five megabytes: {@code name_0}, {@code name_1}, ... each holding {@code value}. */
    private static byte[] manyFields(String name, String value) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; sb.length() < SIZE; i++) {
            sb.append(i == 0 ? "" : ",").append('"').append(name).append('_').append(i).append("\":\"").append(value)
                    .append('"');
        }
        return sb.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    @TestFactory
    Stream<DynamicTest> scansInBoundedSteps() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, byte[]> c : cases().entrySet()) {
            tests.add(DynamicTest.dynamicTest(c.getKey(), () -> assertTimeoutPreemptively(BOUND,
                    () -> new SecretScanner().scan(Path.of("adversarial.json"), c.getValue()))));
        }
        return tests.stream();
    }

    @Test
    void findsWhatIsThereEvenInHugeInput() throws MalformedJsonException {
        List<Finding> same = new SecretScanner().scan(Path.of("a.json"), document("note", repeat(KEY + " ")));
        assertEquals(1, same.size());
        List<Finding> addresses = new SecretScanner().scan(Path.of("a.json"), document("note", distinctAddresses()));
        assertTrue(addresses.size() > 100_000);
    }

    @Test
    void redactsHugeInputInBoundedSteps() {
        ObjectNode cassette = (ObjectNode) JsonMapper.builder().build()
                .readTree(document("note", repeat(KEY + " and fake@mailbox.test ")));
        ObjectNode redacted = assertTimeoutPreemptively(BOUND, () -> new Redactor().redact(cassette));
        assertTrue(redacted.get("request").get("note").asString().startsWith("[REDACTED:openai-key:"));
    }

    @Test
    void deepNestingIsRefusedNotRecursedInto() {
        byte[] deep = ("[".repeat(100_000) + "]".repeat(100_000)).getBytes(StandardCharsets.UTF_8);
        MalformedJsonException e = assertTimeoutPreemptively(BOUND, () -> assertThrows(MalformedJsonException.class,
                () -> new SecretScanner().scan(Path.of("deep.json"), deep)));
        assertTrue(e.getMessage().contains("beyond the parser's limits"), e.getMessage());
    }

    @Test
    void aLongIntegerGetsTheVerdictTheCassetteReaderGivesIt() throws MalformedJsonException {
        // The cassette reader takes integers of up to 4300 digits (Python's own limit): so does the scan.
        byte[] long1001 = ("{\"request\": {\"n\": 1" + "0".repeat(1000) + "}, \"response\": {}}")
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of(), new SecretScanner().scan(Path.of("long.json"), long1001));
        byte[] long4301 = ("{\"request\": {\"n\": 1" + "0".repeat(4300) + "}, \"response\": {}}")
                .getBytes(StandardCharsets.UTF_8);
        MalformedJsonException e = assertThrows(MalformedJsonException.class,
                () -> new SecretScanner().scan(Path.of("long.json"), long4301));
        assertTrue(e.getMessage().contains("JSON beyond the parser's limits: a number is longer than 4300 digits"),
                e.getMessage());
    }
}
