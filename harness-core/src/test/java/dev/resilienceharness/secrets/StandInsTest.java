package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StandInsTest {

    private static boolean counting(String body) {
        return StandIns.isCounting(body.toCharArray(), 0, body.length());
    }

    private static boolean mostlyCounting(String value) {
        return StandIns.isMostlyCounting(value.toCharArray(), 0, value.length());
    }

    private static boolean truncatedAfter(String text, String key) {
        char[] a = text.toCharArray();
        return StandIns.isTruncatedAt(a, text.indexOf(key) + key.length(), a.length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AKIAI44QH8DHBEXAMPLE",
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "123e4567-e89b-12d3-a456-426614174000",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
            + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"})
    void providersDocumentedExamplesStandIn(String value) {
        assertTrue(StandIns.isStandIn(value), value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"YOUR_API_KEY", "sk-proj-0123RANDOMSTRINGHERE", "gsk_YOUR_GROQ_KEY_0123", "your-org-token-1",
        "PASTE_TOKEN_HERE_9f8e", "replace-me-Xk9fQ2", "changeme-0123456789", "<placeholder>", "sk-...xxxx",
        "sk-proj-Ab12Cd34\u2026Yz90", "sk-proj-xxxxxxxxxxxxxxxx1234", "sk-proj-****************AbCd", "AKIAXXXXXXXXXXXXXXXX"})
    void placeholdersAndMaskedKeysStandIn(String value) {
        assertTrue(StandIns.isStandIn(value), value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sk-proj-FAKEabcdefghijklmnop0123456789", "AKIAFAKE0123456789AB", "Xk9fQ2mLp8Rt5vWz3YbN",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY", "xoxb-0000000000-0000000000000-FAKEabcdef", "sk_test_FAKEabcdefghijklmn0",
        "9f86d081884c7d65", "one.two"})
    void realLookingKeysDoNot(String value) {
        assertFalse(StandIns.isStandIn(value), value);
    }

    @Test
    void aBodyCountsWhenItsRunsAverageEightOrMore() {
        assertTrue(counting("SyABCDEFGHIJKLMNOPQRSTUVWXYZ0123456"));
        assertTrue(counting("abcdefghijklmnopqrstuvwxyz123456789"));
        assertTrue(counting("SyAbCdEfGhIjKlMnOpQrStUvWxYz0123456"));
        assertTrue(counting("a1b2c3d4e5f6g7h8i9"));
        // the fakes of this project's own tests count a little, but not that much
        assertFalse(counting("SyFAKE0123456789abcdefghijklmnopqrs"));
        assertFalse(counting("FAKEabcdefghijklmnopqrstuvwxyzAB"));
        assertFalse(counting("FAKEabcdefghijklmnop0123456789"));
        assertFalse(counting("Xk9fQ2mLp8Rt5vWz3YbNq7Hs"));
        assertFalse(counting(""));
    }

    @Test
    void aValueMostlyCountsWhenHalfItsCharactersLieInRunsOfFour() {
        assertTrue(mostlyCounting("xoxb-12345-67890-AbCdEfGhIjKlMnOpQrStUv"));
        assertTrue(mostlyCounting("12345678-1234-1234-1234-123456789012"));
        assertTrue(mostlyCounting("abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789"));
        assertFalse(mostlyCounting("FAKEaB3dE5gH7jK9mN1pQ3rS"));
        assertFalse(mostlyCounting("f47ac10b-58cc-4372-a567-0e02b2c3d479"));
        assertFalse(mostlyCounting("---"));
    }

    @Test
    void aKeyFollowedByAnEllipsisOrStarsIsShownCutShort() {
        String key = "sk-proj-Ab12Cd34Ef56Gh78Ij90";
        assertTrue(truncatedAfter(key + "...Yz90", key));
        assertTrue(truncatedAfter(key + "\u2026", key));
        assertTrue(truncatedAfter(key + "****", key));
        assertFalse(truncatedAfter(key + ". Next sentence", key));
        assertFalse(truncatedAfter(key, key));
    }

    @Test
    void aBodyOfOneShortUnitRepeatedStandsIn() {
        assertTrue(repeats("FakeFakeFakeFakeFakeFakeFakeFake"));
        assertTrue(repeats("Fake12Fake12Fake12Fake12Fak"));
        assertFalse(repeats("FAKEq8Zr2Lm5Np0Xv7Tb4Kc1Wd9Ys3Hg"));
        assertFalse(repeats("FakeFakeXakeFakeFakeFakeFake"));
        assertFalse(repeats("abcdefghiabcdefghiabcdefghi"), "units longer than eight characters are not looked for");
    }

    @Test
    void aKeyFollowedByHashesOrEndingInTwoDotsIsShownCutShort() {
        assertTrue(truncatedAfter("xoxb-263594206564-2343594206574-####", "xoxb-263594206564-2343594206574-"));
        assertTrue(StandIns.isStandIn("FAKEq8Zr2Lm5Np0Xv7Tb4Kc1.."));
        assertFalse(StandIns.isStandIn("FAKEq8Zr2Lm5Np0Xv7Tb4Kc1.b"));
    }

    private static boolean repeats(String body) {
        return StandIns.repeats(body.toCharArray(), 0, body.length());
    }
}
