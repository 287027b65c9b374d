package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StringInspectorTest {

    private static final String KEY = "sk-proj-FAKEabcdefghijklmnop0123456789";
    private static final String RANDOM = "FAKEaB3dE5gH7jK9mN1pQ3rS";

    /** Each hit as rule, secret and the text its span covers. */
    private static List<String> inspect(String text, boolean keyLike) {
        List<String> out = new ArrayList<>();
        for (Hit h : new StringInspector().inspect(text.toCharArray(), 0, text.length(), keyLike)) {
            out.add(h.rule().id() + "|" + h.secret() + "|" + text.substring(h.start(), h.end()));
        }
        return out;
    }

    @Test
    void plainTokens() {
        assertEquals(List.of("openai-key|" + KEY + "|" + KEY), inspect("use " + KEY + " here", false));
    }

    @Test
    void percentEncodedSecretsAreDecodedAndTheirEncodedSpanIsCut() {
        String encoded = "%73k-proj-FAKEabcdefghijklmnop0123456789".replace("-", "%2D");
        assertEquals(List.of("openai-key|" + KEY + "|" + encoded), inspect("https://x.test/?key=" + encoded + "&a=b",
                false));
    }

    @Test
    void basicCredentialsAreDecodedAndTheWholeTokenIsCut() {
        String token = Base64.getEncoder().encodeToString(("user:" + KEY).getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("openai-key|" + KEY + "|" + token), inspect("Basic " + token, false));
        String password = Base64.getEncoder().encodeToString(("svc:" + RANDOM).getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("high-entropy-secret|" + RANDOM + "|" + password), inspect("Basic " + password, false));
    }

    @Test
    void pairsWithKeyLikeNamesAreJudgedByEntropy() {
        assertEquals(List.of("high-entropy-secret|" + RANDOM + "|" + RANDOM),
                inspect("export SERVICE_API_KEY=" + RANDOM + " && run", false));
        assertEquals(List.of("high-entropy-secret|" + RANDOM + "|" + RANDOM),
                inspect("auth_token: \"" + RANDOM + "\"", false));
        assertEquals(List.of("high-entropy-secret|" + RANDOM + "|" + RANDOM),
                inspect("Authorization: Bearer " + RANDOM, false));
        assertEquals(List.of(), inspect("colour=" + RANDOM, false));
        assertEquals(List.of(), inspect("password: hunter2", false));
    }

    @Test
    void aKeyLikeFieldsWholeValueIsJudgedUnlessATokenRuleAlreadyMatched() {
        assertEquals(List.of("high-entropy-secret|" + RANDOM + "|" + RANDOM), inspect(RANDOM, true));
        assertEquals(List.of("high-entropy-secret|" + RANDOM + "|" + RANDOM), inspect("Bearer " + RANDOM, true));
        assertEquals(List.of("openai-key|" + KEY + "|" + KEY), inspect(KEY, true));
        assertEquals(List.of(), inspect(RANDOM, false));
    }

    @Test
    void uuidsAndDigestsInPairsAreKeysOnlyUnderKeyLikeNames() {
        String uuid = "f47ac10b-58cc-4372-a567-0e02b2c3d479";
        String hex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        assertEquals(List.of("high-entropy-secret|" + uuid + "|" + uuid), inspect("api_token=" + uuid, false));
        assertEquals(List.of("high-entropy-secret|" + hex + "|" + hex), inspect("creds: " + hex, false));
        assertEquals(List.of(), inspect("request_id=" + uuid + "&sha256=" + hex, false));
        assertEquals(List.of(), inspect("csrf_token=" + RANDOM + "&publishable_key=" + RANDOM, false));
    }

    @Test
    void aBasicPasswordThatIsAUuidIsAKey() {
        String uuid = "f47ac10b-58cc-4372-a567-0e02b2c3d479";
        String token = Base64.getEncoder().encodeToString(("api:" + uuid).getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("high-entropy-secret|" + uuid + "|" + token), inspect("Basic " + token, false));
    }

    @Test
    void aStandInUnderAKeyLikeNameIsNoSecret() {
        assertEquals(List.of(), inspect("AKIAIOSFODNN7EXAMPLE", true));
        assertEquals(List.of(), inspect("Bearer YOUR_API_KEY", true));
        assertEquals(List.of(), inspect("xoxb-12345-67890-AbCdEfGhIjKlMnOpQrStUv", true));
        assertEquals(List.of(), inspect("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", false));
    }

    @Test
    void base64DataUrisAreOpaque() {
        assertTrue(inspect("data:image/png;base64,AKIAFAKE0123456789AB+" + KEY, true).isEmpty());
    }

    @Test
    void spansAreRelativeToTheStartOfTheRange() {
        String text = "xxxx" + KEY;
        List<Hit> hits = new StringInspector().inspect(text.toCharArray(), 4, text.length(), false);
        assertEquals(0, hits.get(0).start());
        assertEquals(KEY.length(), hits.get(0).end());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "API_KEY = %s", "service.api_key = %s", "api_key = \"%s\"", "apiKey := \"%s\"",
        "private static final String API_TOKEN = \"%s\";", "val apiToken = \"%s\"",
        "string clientSecret = \"%s\";", "$db_password = '%s';", "SECRET_KEY ?= %s", "AUTH_TOKEN := %s",
        "<apiKey>%s</apiKey>", "System.setProperty(\"X_TOKEN\", \"%s\");", "config.api_key => \"%s\"",
        ":api_key => '%s'", "output { http { password => \"%s\" } }",
    })
    void assignmentsWrittenInCodeAndConfigAreJudgedByEntropy(String line) {
        assertEquals(List.of("high-entropy-secret|" + RANDOM + "|" + RANDOM), inspect(line.formatted(RANDOM), false));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "colour = %s", "<model>%s</model>", "[\"token\", \"%s\"]", "token_type = \"%s\"",
        "api_key = os.environ[\"%s\"]", "a == %s",
    })
    void assignmentsToOtherNamesOrOfNoValueAreNot(String line) {
        assertEquals(List.of(), inspect(line.formatted(RANDOM), false), line);
        assertEquals(List.of(), inspect("password = hunter2", false));
    }

    @Test
    void anAuthSchemeWithADashIsStillAScheme() {
        assertEquals(List.of("high-entropy-secret|" + RANDOM + "|" + RANDOM),
                inspect("curl -H \"Authorization: Api-Token " + RANDOM + "\" https://x.test/v1", false));
        assertEquals(List.of("high-entropy-secret|" + RANDOM + "|" + RANDOM), inspect("Api-Token " + RANDOM, true));
    }

    @Test
    void base64AndHexEncodedSecretsAreFoundAndTheEncodedRunIsTheSpan() {
        String b64 = Base64.getEncoder().encodeToString(("my key is " + KEY).getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("openai-key|" + b64 + "|" + b64), inspect("here it is: " + b64 + " (encoded)", false));
        String url = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("\u00ff" + KEY).getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(List.of(), inspect(url, false), "bytes that are not text are not read again");
        String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(KEY.getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("openai-key|" + urlSafe + "|" + urlSafe), inspect("k=" + urlSafe, false));
        String hex = java.util.HexFormat.of().formatHex(("api_key=" + RANDOM).getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("high-entropy-secret|" + hex + "|" + hex), inspect("dump " + hex, false));
        String twice = Base64.getEncoder().encodeToString(b64.getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("openai-key|" + twice + "|" + twice), inspect(twice, false));
    }

    @Test
    void encodedTextWithoutASecretAndDigestsAreLeftAlone() {
        String prose = Base64.getEncoder().encodeToString(
                "nothing to see in this sentence at all".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(), inspect(prose, false));
        assertEquals(List.of(), inspect("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", false));
        String thrice = KEY;
        for (int i = 0; i < StringInspector.MAX_DECODE_DEPTH + 1; i++) {
            thrice = Base64.getEncoder().encodeToString(thrice.getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(List.of(), inspect(thrice, false), "decoding stops at the decode depth");
    }

    @Test
    void aValueCutShortForDisplayIsNoSecret() {
        assertEquals(List.of(), inspect("api_key=" + RANDOM + "..[Redacted]", false));
        assertEquals(List.of(), inspect("token: " + KEY + "..[Redacted]", false));
    }
}
