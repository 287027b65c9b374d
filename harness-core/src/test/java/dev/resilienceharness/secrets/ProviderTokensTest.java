package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProviderTokensTest {

    private static Rule match(String run) {
        return ProviderTokens.match(run.toCharArray(), 0, run.length());
    }

    @ParameterizedTest
    @CsvSource({
        "sk-proj-FAKEabcdefghijklmnop0123456789, openai-key",
        "sk-svcacct-FAKE_abcdefghijklmnop0123-xyz, openai-key",
        "sk-admin-FAKEabcdefghijklmnopqr01234567, openai-key",
        "sk-service-account-FAKE_abcdefghijklmnop0123-xyzQ7, openai-key",
        "sk-FAKEabcdefghijklmnopqrstuvwxyz0123456789AB, openai-key",
        "sk-ant-api03-FAKEabcdefghijklmnopqrstuvwxyz0123456789-_AA, anthropic-key",
        "AIzaSyFAKE0123456789abcdefghijklmnopqrs, google-api-key",
        "hf_FAKEabcdefghijklmnopqrstuvwxyzAB, huggingface-token",
        "gsk_FAKEabcdefghijklmnopqrstuvwxyz0123456789ABCD, groq-key",
        "AKIAFAKE0123456789AB, aws-access-key-id",
        "ASIAFAKE0123456789AB, aws-access-key-id",
        "ghp_FAKEabcdefghijklmnopqrstuvwxyz012345, github-token",
        "ghs_FAKEabcdefghijklmnopqrstuvwxyz012345, github-token",
        "github_pat_FAKE0123456789abcdefgh_ijklmnopqrstuvwxyz, github-token",
        "xoxb-0000000000-0000000000000-FAKEabcdef, slack-token",
        "xoxp-1000000001-2000000002-3000000003-FAKEabcdef0123456789abcdef012345, slack-token",
        "xoxa-2-FAKEabcdef01, slack-token",
        "sk_test_FAKEabcdefghijklmn0, stripe-key",
        "rk_live_FAKEabcdefghijklmn0, stripe-key",
    })
    void recognisesEachProvidersShape(String run, String rule) {
        assertEquals(rule, match(run).id());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "sk-learn", "sk-proj-short0", "sk-proj-only-hyphenated-words-here-and-more",
        "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "sk-ant-short0",
        "AIzaSyFAKE0123456789abcdefghijklmnopqrsX", "AIzaTooShort0123", "AKIAabcdefghijklmnop", "AKIAFAKE0123456789ABC",
        "hf_hub_download_and_more_words", "hf_abcdefghijklmnopqrstuvwxyzabcd", "gsk_short0", "ghp_short0",
        "ghx_FAKEabcdefghijklmnopqrstuvwxyz012345", "github_pat_short", "xoxb-words-only-here", "xoxz-0000000000000",
        "sk_live_short0", "pk_live_FAKEabcdefghijklmn0", "desk-proj-FAKEabcdefghijklmnop0123456789",
        // bot and user tokens start with a workspace number of eight digits or more
        "xoxp-12-FAKEabcdef", "xoxb-12345-FAKEabcdef0123",
    })
    void leavesNearMissesAlone(String run) {
        assertNull(match(run), run);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // documented by the providers themselves
        "AKIAIOSFODNN7EXAMPLE", "AKIAI44QH8DHBEXAMPLE", "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        // placeholders: the alphabet, template words, masks, a body of words
        "AIzaSyABCDEFGHIJKLMNOPQRSTUVWXYZ0123456", "AIzaSyAbCdEfGhIjKlMnOpQrStUvWxYz0123456",
        "AIzaYOUR_API_KEY_HERE_0123456789abcdefg", "sk-proj-0123RANDOMSTRINGHERE", "AKIA0123456789ABCDEF",
        "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "sk-proj-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx1234",
        "hf_ModelRepositoryIdentifierForTheTests",
    })
    void leavesStandInsAlone(String run) {
        assertNull(match(run), run);
    }

    @Test
    void aKeyGluedToALetterOfAnotherScriptIsPartOfAWord() {
        String key = "hf_FAKEabcdefghijklmnopqrstuvwxyzAB";
        char[] glued = ("Ma\u00df" + key + " x").toCharArray();
        assertNull(ProviderTokens.match(glued, 0, 3, 3 + key.length(), glued.length));
        char[] after = (key + "\u00e9").toCharArray();
        assertNull(ProviderTokens.match(after, 0, 0, key.length(), after.length));
        char[] free = ("x " + key + " y").toCharArray();
        assertEquals(Rule.HUGGINGFACE_TOKEN, ProviderTokens.match(free, 0, 2, 2 + key.length(), free.length));
    }

    @Test
    void aKeyShownCutShortIsNoKey() {
        String key = "sk-proj-FAKEabcdefghijklmnop0123456789";
        for (String tail : new String[] {"...wxyz", "\u2026", "****"}) {
            char[] a = (key + tail).toCharArray();
            assertNull(ProviderTokens.match(a, 0, 0, key.length(), a.length), tail);
        }
        char[] sentence = (key + ". Next").toCharArray();
        assertEquals(Rule.OPENAI_KEY, ProviderTokens.match(sentence, 0, 0, key.length(), sentence.length));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sk-proj-FAKEabcdefghijklmnop0123456789"})
    void looksOnlyAtTheRunItIsGiven(String key) {
        char[] a = ("x " + key + " y").toCharArray();
        assertEquals(Rule.OPENAI_KEY, ProviderTokens.match(a, 2, 2 + key.length()));
        assertNull(ProviderTokens.match(a, 2, 2 + 10));
    }

    @ParameterizedTest
    @ValueSource(strings = {"xoxb-2635942065-2343594206574", "xoxp-263594206564-2343594206574"})
    void slackBotAndUserTokensInTheirShortTwoPartShape(String run) {
        assertEquals(Rule.SLACK_TOKEN, match(run));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hf_FakeFakeFakeFakeFakeFakeFakeFakeFake", "ghp_Ab12Ab12Ab12Ab12Ab12Ab12Ab12Ab12Ab12",
        "xoxb-263594206-1234512345"})
    void aBodyOfOneShortUnitRepeatedOrTooShortIsNoKey(String run) {
        assertNull(match(run), run);
    }

    @Test
    void installationTokensCarryAnAppIdAndAJwt() {
        String jwt = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiIxMjM0NSJ9.FAKEq8Zr2Lm5Np0Xv7Tb4Kc1Wd9Ys3Hg";
        char[] a = ("ghs_123456_" + jwt + " x").toCharArray();
        int runEnd = "ghs_123456_eyJhbGciOiJSUzI1NiJ9".length();
        assertEquals(11 + jwt.length(), ProviderTokens.installationTokenEnd(a, 0, runEnd, a.length));
        char[] noId = ("ghs__" + jwt).toCharArray();
        assertEquals(-1, ProviderTokens.installationTokenEnd(noId, 0, 5 + jwt.indexOf('.'), noId.length));
    }
}
