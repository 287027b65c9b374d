package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SecretScannerTest {

    private static final String KEY = "sk-proj-FAKEabcdefghijklmnop0123456789";
    private static final String RANDOM = "FAKEaB3dE5gH7jK9mN1pQ3rS";
    private static final Path FILE = Path.of("cassettes/0123456789abcdef.json");

    private static List<Finding> scan(String json) throws MalformedJsonException {
        return new SecretScanner().scan(FILE, json.getBytes(StandardCharsets.UTF_8));
    }

    /** Each finding as {@code line:column rule path}. */
    private static List<String> summary(String json) throws MalformedJsonException {
        List<String> out = new ArrayList<>();
        for (Finding f : scan(json)) {
            out.add(f.line() + ":" + f.column() + " " + f.ruleId() + " " + f.jsonPath());
        }
        return out;
    }

    @Test
    void reportsLineColumnOfTheStringAndItsPath() throws MalformedJsonException {
        String json = "{\n  \"request\": {\n    \"note\": \"é " + KEY + "\"\n  }\n}";
        assertEquals(List.of("3:13 openai-key $.request.note"), summary(json));
        Finding f = scan(json).get(0);
        assertEquals(FILE, f.file());
        assertEquals("sk-p****", f.masked());
        assertEquals(Finding.fingerprint(Rule.OPENAI_KEY, KEY), f.fingerprint());
    }

    @Test
    void columnsCountCharactersNotBytes() throws MalformedJsonException {
        String json = "{\"ü😀\": \"" + KEY + "\"}";
        assertEquals(List.of("1:9 openai-key $['ü😀']"), summary(json));
    }

    @Test
    void decodesEscapesBeforeMatching() throws MalformedJsonException {
        String escaped = "\\u0073\\u006B-proj-FAKE" + "abcdefghijklmnop0123456789";
        assertEquals(List.of("1:10 openai-key $.note"), summary("{\"note\": \"" + escaped + "\"}"));
        assertEquals(List.of("1:9 openai-key $.url"),
                summary("{\"url\": \"https:\\/\\/x.test\\/" + KEY + "\\/v\"}"));
    }

    @Test
    void followsJsonCarriedInStringsWithItsOwnPath() throws MalformedJsonException {
        String args = "{\\\"city\\\": \\\"Lisbon\\\", \\\"auth\\\": {\\\"api_key\\\": \\\"" + RANDOM + "\\\"}, "
                + "\\\"keys\\\": [\\\"" + KEY + "\\\"]}";
        String json = "{\"choices\": [{\"message\": {\"tool_calls\": [{\"function\": {\"arguments\": \"" + args
                + "\"}}]}}]}";
        assertEquals(List.of(
                "1:69 high-entropy-secret $.choices[0].message.tool_calls[0].function.arguments.auth.api_key",
                "1:69 openai-key $.choices[0].message.tool_calls[0].function.arguments.keys[0]"), summary(json));
    }

    @Test
    void textThatOnlyLooksLikeJsonIsScannedAsText() throws MalformedJsonException {
        assertEquals(List.of("1:10 openai-key $.note"), summary("{\"note\": \"{not json " + KEY + "}\"}"));
    }

    @Test
    void credentialHeadersAreFindingsWhateverTheirValueButOnlyInHeaders() throws MalformedJsonException {
        String json = "{\"request\": {\"headers\": {\"AUTHORIZATION\": \"Bearer opaque\", \"Cookie\": [\"a=b\"], "
                + "\"Accept\": \"*/*\"}, \"authorization\": \"none\"}}";
        assertEquals(List.of("1:43 credential-header $.request.headers.AUTHORIZATION",
                "1:71 credential-header $.request.headers.Cookie[0]"), summary(json));
    }

    @Test
    void keyLikeNamesGetTheEntropyRule() throws MalformedJsonException {
        String json = "{\"api_key\": \"" + RANDOM + "\", \"model\": \"" + RANDOM + "\", \"token\": \"changeme\"}";
        assertEquals(List.of("1:13 high-entropy-secret $.api_key"), summary(json));
    }

    @Test
    void uuidsAreKeysUnderTokenNamesAndIdsElsewhere() throws MalformedJsonException {
        String uuid = "f47ac10b-58cc-4372-a567-0e02b2c3d479";
        String json = "{\"api_token\": \"" + uuid + "\", \"request_id\": \"" + uuid + "\", \"trace_id\": \"" + uuid
                + "\", \"csrf_token\": \"" + RANDOM + "\", \"public_key\": \"" + RANDOM + "\"}";
        assertEquals(List.of("1:15 high-entropy-secret $.api_token"), summary(json));
    }

    @Test
    void secretsInKeysAreFoundAndMaskedInPaths() throws MalformedJsonException {
        List<Finding> findings = scan("{\"cache\": {\"" + KEY + "\": 1}}");
        assertEquals(1, findings.size());
        assertEquals("$.cache['sk-p****']", findings.get(0).jsonPath());
        assertFalse(findings.get(0).toString().contains(KEY));
    }

    @Test
    void theSameSecretTwiceInOneStringIsOneFinding() throws MalformedJsonException {
        assertEquals(1, scan("{\"note\": \"" + KEY + " and again " + KEY + "\"}").size());
    }

    @Test
    void invalidJsonNamesFileLineAndColumnButNotTheContent() {
        MalformedJsonException e = assertThrows(MalformedJsonException.class,
                () -> scan("{\n  \"note\": " + KEY + "\n}"));
        assertEquals(FILE + ":2:11: not valid JSON; fix the file or re-record it with `mvn resilience:record`",
                e.getMessage());
        assertFalse(e.getMessage().contains("sk-"));
        assertEquals(null, e.getCause());
    }

    @Test
    void truncatedEmptyAndDoubledDocumentsAreNotJson() {
        MalformedJsonException cut = assertThrows(MalformedJsonException.class, () -> scan("{\"a\": [1, 2"));
        assertTrue(cut.getMessage().contains("the content ends before the JSON value does"), cut.getMessage());
        MalformedJsonException empty = assertThrows(MalformedJsonException.class, () -> scan("  "));
        assertTrue(empty.getMessage().startsWith(FILE + ": empty"), empty.getMessage());
        MalformedJsonException two = assertThrows(MalformedJsonException.class, () -> scan("{}\n{}"));
        assertTrue(two.getMessage().startsWith(FILE + ":2:1: more than one top-level JSON value"), two.getMessage());
    }

    @Test
    void treesAreScannedInTheirPrettyPrintedForm() throws MalformedJsonException {
        JsonMapper mapper = JsonMapper.builder().build();
        JsonNode tree = mapper.readTree("{\"request\": {\"headers\": {\"x-api-key\": \"" + KEY + "\"}}}");
        byte[] pretty = mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(tree);
        List<Finding> fromTree = new SecretScanner().scan(FILE, tree);
        assertEquals(new SecretScanner().scan(FILE, pretty), fromTree);
        assertEquals(List.of(Rule.CREDENTIAL_HEADER, Rule.OPENAI_KEY),
                fromTree.stream().map(Finding::rule).toList());
        assertEquals(4, fromTree.get(0).line());
    }

    @Test
    void shortHexAndNumberedKeysUnderAKeyNameAreSecrets() throws MalformedJsonException {
        assertEquals(List.of("1:12 high-entropy-secret $.apiKey"), summary("{\"apiKey\": \"9f3a1c7e5b2d48a06\"}"));
        assertEquals(List.of("1:12 high-entropy-secret $.apiKey"),
                summary("{\"apiKey\": \"7310553328:AAHq8Zr2Lm5Np0Xv7Tb4Kc1Wd9Ys3Hg6Jf0\"}"));
    }

    @Test
    void aDashedAuthSchemeInACurlLineOfToolCallArgumentsIsFound() throws MalformedJsonException {
        String json = "{\"function\": {\"arguments\": \"{\\\"command\\\": \\\"curl -H 'Authorization: Api-Token "
                + RANDOM + "' https://x.test/v1\\\"}\"}}";
        assertEquals(List.of("1:28 high-entropy-secret $.function.arguments.command"), summary(json));
    }

    @Test
    void aBase64EncodedKeyIsFoundAndMaskedAsItsEncodedText() throws MalformedJsonException {
        String encoded = java.util.Base64.getEncoder().encodeToString(
                ("OPENAI_API_KEY=" + KEY).getBytes(StandardCharsets.UTF_8));
        List<Finding> found = scan("{\"content\": \"my .env, encoded: " + encoded + "\"}");
        assertEquals(1, found.size());
        assertEquals("openai-key", found.get(0).ruleId());
        assertEquals(encoded.substring(0, 4) + "****", found.get(0).masked());
        assertEquals(Finding.fingerprint(Rule.OPENAI_KEY, encoded), found.get(0).fingerprint());
    }
}
