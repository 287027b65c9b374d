package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class RedactorTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final String KEY = "sk-proj-FAKEabcdefghijklmnop0123456789";
    private static final String RANDOM = "FAKEaB3dE5gH7jK9mN1pQ3rS";

    private static ObjectNode json(String text) {
        return (ObjectNode) MAPPER.readTree(text);
    }

    private static String placeholder(Rule rule, String secret) {
        return "[REDACTED:" + rule.id() + ":" + Finding.fingerprint(rule, secret).substring(0, 8) + "]";
    }

    @Test
    void dropsCredentialHeadersEverywhereWhateverTheirCase() throws RedactionFailedException {
        ObjectNode cassette = json("{\"request\": {\"headers\": {\"AUTHORIZATION\": \"Bearer x\", \"Accept\": \"*/*\","
                + " \"X-Api-Key\": \"k\"}, \"retry\": [{\"headers\": {\"cookie\": \"a=b\"}}]},"
                + " \"response\": {\"headers\": {\"Set-Cookie\": \"s=1\", \"x-request-id\": \"req_1\"}}}");
        assertEquals(json("{\"request\": {\"headers\": {\"Accept\": \"*/*\"}, \"retry\": [{\"headers\": {}}]},"
                + " \"response\": {\"headers\": {\"x-request-id\": \"req_1\"}}}"), new Redactor().redact(cassette));
    }

    @Test
    void replacesEachSecretInsideItsStringDeterministically() throws RedactionFailedException {
        ObjectNode cassette = json("{\"note\": \"use " + KEY + " or mail fake@mailbox.test\", \"api_key\": \""
                + RANDOM + "\", \"auth\": \"Bearer " + RANDOM + "\", \"n\": 3}");
        ObjectNode redacted = new Redactor().redact(cassette);
        assertEquals("use " + placeholder(Rule.OPENAI_KEY, KEY) + " or mail "
                + placeholder(Rule.EMAIL_ADDRESS, "fake@mailbox.test"), redacted.get("note").asString());
        assertEquals(placeholder(Rule.HIGH_ENTROPY_SECRET, RANDOM), redacted.get("api_key").asString());
        assertEquals("Bearer " + placeholder(Rule.HIGH_ENTROPY_SECRET, RANDOM), redacted.get("auth").asString());
        assertEquals(3, redacted.get("n").asInt());
        assertEquals(redacted, new Redactor().redact(cassette));
    }

    @Test
    void rewritesJsonCarriedInStrings() throws RedactionFailedException {
        String args = MAPPER.writeValueAsString(MAPPER.readTree("{\"city\": \"Lisbon\", \"api_key\": \"" + KEY + "\"}"));
        ObjectNode cassette = MAPPER.createObjectNode();
        cassette.putObject("function").put("arguments", args);
        ObjectNode redacted = new Redactor().redact(cassette);
        assertEquals("{\"city\":\"Lisbon\",\"api_key\":\"" + placeholder(Rule.OPENAI_KEY, KEY) + "\"}",
                redacted.get("function").get("arguments").asString());
        ObjectNode clean = MAPPER.createObjectNode();
        clean.put("arguments", "{ \"city\" : \"Lisbon\" }");
        assertEquals(clean, new Redactor().redact(clean));
    }

    @Test
    void cutsPercentEncodedAndBasicEncodedSecretsWhole() throws RedactionFailedException {
        String encoded = KEY.replace("-", "%2D");
        String basic = Base64.getEncoder().encodeToString(("user:" + KEY).getBytes(StandardCharsets.UTF_8));
        ObjectNode cassette = json("{\"url\": \"https://x.test/v1?key=" + encoded + "&stream=true\", \"proxy\": "
                + "\"Basic " + basic + "\"}");
        ObjectNode redacted = new Redactor().redact(cassette);
        assertEquals("https://x.test/v1?key=" + placeholder(Rule.OPENAI_KEY, KEY) + "&stream=true",
                redacted.get("url").asString());
        assertEquals("Basic " + placeholder(Rule.OPENAI_KEY, KEY), redacted.get("proxy").asString());
    }

    @Test
    void redactsKeysAndLeavesTheInputAlone() throws RedactionFailedException {
        ObjectNode cassette = json("{\"cache\": {\"" + KEY + "\": 1}}");
        ObjectNode before = cassette.deepCopy();
        ObjectNode redacted = new Redactor().redact(cassette);
        assertTrue(redacted.get("cache").has(placeholder(Rule.OPENAI_KEY, KEY)));
        assertEquals(before, cassette);
    }

    @Test
    void keepsWhatTheAllowListAccepts() throws RedactionFailedException {
        ObjectNode cassette = json("{\"to\": \"fake@example.test\", \"cc\": \"fake@mailbox.test\"}");
        ObjectNode redacted = new Redactor(Allowlist.of(List.of(".*@example\\.test"))).redact(cassette);
        assertEquals("fake@example.test", redacted.get("to").asString());
        assertEquals(placeholder(Rule.EMAIL_ADDRESS, "fake@mailbox.test"), redacted.get("cc").asString());
    }

    @Test
    void failsClosedWhenTheRescanStillFindsASecret() {
        ObjectNode cassette = json("{\"to\": \"fake@example.test\"}");
        Redactor lenient = new Redactor(Allowlist.of(List.of(".*@example\\.test")), new SecretScanner());
        RedactionFailedException e = assertThrows(RedactionFailedException.class, () -> lenient.redact(cassette));
        assertEquals(1, e.remaining().size());
        assertEquals("$.to", e.remaining().get(0).jsonPath());
        assertFalse(e.getMessage().contains("fake@example.test"));
    }

    @Test
    void aRedactedCassetteScansClean() throws RedactionFailedException {
        ObjectNode cassette = json("{\"request\": {\"headers\": {\"Authorization\": \"Bearer " + KEY + "\"},"
                + " \"messages\": [{\"content\": \"-----BEGIN RSA PRIVATE KEY-----\\nMIIEFAKE\\n"
                + "-----END RSA PRIVATE KEY-----\"}]}}");
        ObjectNode redacted = new Redactor().redact(cassette);
        assertEquals(List.of(), new SecretScanner().scan(Path.of("r.json"), redacted));
        assertEquals(redacted, new Redactor().redact(redacted));
    }

    @Test
    void aBedrockRequestsSigV4HeadersNeverReachACassette() throws RedactionFailedException {
        String signature = "AWS4-HMAC-SHA256 Credential=harness-replay/20260101/us-east-1/bedrock/aws4_request,"
                + " SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=FAKE0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d";
        String session = "FAKEIQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQDFAKE";
        ObjectNode cassette = json("{\"request\": {\"headers\": {\"Authorization\": \"" + signature + "\","
                + " \"X-Amz-Security-Token\": \"" + session + "\", \"X-Amz-Date\": \"20260101T000000Z\"},"
                + " \"modelId\": \"amazon.nova-lite-v1:0\"}}");
        ObjectNode redacted = new Redactor().redact(cassette);
        String text = redacted.toString();
        assertFalse(text.contains("Signature=FAKE"), text);
        assertFalse(text.contains(session), text);
        assertEquals("20260101T000000Z", redacted.at("/request/headers/X-Amz-Date").asString());
        assertEquals(List.of(), new SecretScanner().scan(Path.of("b.json"), redacted));
    }

    @Test
    void appliesATeamsRulesBesideTheBuiltInOnesAndTheirAllowlists() throws Exception {
        String token = "acme_test_h3gj6f01x8w2e5r7t9y4u6i0";
        GitleaksRules rules = GitleaksRules.parse(Path.of(".gitleaks.toml"), """
                [[rules]]
                id = "acme-internal-token"
                regex = '\''acme_(?:live|test)_[a-z0-9]{24}'\''
                [rules.allowlist]
                stopwords = ["acme_test_00000"]
                """.getBytes(StandardCharsets.UTF_8));
        assertFalse(rules.useDefault(), "the file replaces the built-in rules for the scan");
        ObjectNode cassette = json("{\"note\": \"" + token + " then " + KEY + "\","
                + " \"kept\": \"acme_test_000000000000000000000000\", \"" + token + "\": 1}");
        ObjectNode redacted = new Redactor(Allowlist.NONE, rules).redact(cassette);
        assertEquals("[REDACTED:acme-internal-token:" + Finding.fingerprint("acme-internal-token", token)
                .substring(0, 8) + "] then " + placeholder(Rule.OPENAI_KEY, KEY), redacted.get("note").asString(),
                "recording still redacts what the built-in rules find");
        assertEquals("acme_test_000000000000000000000000", redacted.get("kept").asString());
        assertTrue(redacted.has(token), "like the scan, a team's rules read values, not field names");
        assertEquals(List.of(), new SecretScanner(Allowlist.NONE, rules).scan(Path.of("c.json"), redacted));

        Allowlist fingerprint = Allowlist.of(List.of(Finding.fingerprint("acme-internal-token", token)));
        assertTrue(new Redactor(fingerprint, rules).redact(cassette).get("note").asString().startsWith(token + " "),
                "redaction.allow names a team rule's finding by its fingerprint");
    }
}
