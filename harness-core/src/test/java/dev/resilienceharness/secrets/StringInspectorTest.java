package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
