package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HighEntropyTest {

    private static final String BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    @ParameterizedTest
    @ValueSource(strings = {"Xk9fQ2mLp8Rt5vWz", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY", "9f86d081884c7d65",
        "tok_1234567890abcdef", "FAKEaB3dE5gH7jK9mN1pQ3rS", "Zx8Qw2Er6Ty4Ui0Op1As+/=="})
    void randomKeysAreSecrets(String value) {
        assertTrue(HighEntropy.isRandom(value), value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"MySecretPassword", "ReplaceWithYourOwnSecret", "ReplaceWithYourOwnKey",
        "TestingToken12345", "ThisIsNotASecretValue1", "correcthorsebatterystaple", "YOUR_API_KEY_HERE",
        "not-a-real-access-key", "user-1234567890", "order_1234567890123", "claude-3-5-sonnet-20241022",
        "gpt-4o-mini-2024-07-18", "text-embedding-3-small", "AdminAdminAdmin123", "${OPENAI_API_KEY}",
        "<your-api-key>", "chatcmpl-FAKE0123456789abcdefABCDEF", "123e4567-e89b-12d3-a456-426614174000",
        "da39a3ee5e6b4b0d3255bfef95601890afd80709", "[REDACTED:openai-key:1a2b3c4d]", "Xk9fQ2mLp8Rt5vW",
        "aaaaaaaaaaaaaaaaaaaaaaaa", "2026-01-01T10:00:00.000Z"})
    void wordsIdsAndPlaceholdersAreNot(String value) {
        assertFalse(HighEntropy.isRandom(value), value);
    }

    @Test
    void catchesAlmostEveryRandomKeyOfSixteenOrMore() {
        Random random = new Random(7);
        for (int length : new int[] {16, 24, 40}) {
            int missed = 0;
            int n = 20_000;
            for (int i = 0; i < n; i++) {
                StringBuilder sb = new StringBuilder();
                for (int k = 0; k < length; k++) {
                    sb.append(BASE62.charAt(random.nextInt(BASE62.length())));
                }
                if (!HighEntropy.isRandom(sb.toString())) {
                    missed++;
                }
            }
            assertTrue(missed < n / 100, length + " characters: missed " + missed + " of " + n);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Xk9fQ2mLp8Rt5vWz", "f47ac10b-58cc-4372-a567-0e02b2c3d479", "F47AC10B-58CC-4372-A567-0E02B2C3D479",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"})
    void underAKeyLikeNameUuidsAndDigestsAreKeys(String value) {
        assertTrue(HighEntropy.isSecretUnderKeyName(value), value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"00000000-0000-0000-0000-000000000000", "12345678-1234-1234-1234-123456789012",
        "123e4567-e89b-12d3-a456-426614174000", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "sk-proj-Ab12Cd34Ef56Gh78...Yz90", "MySecretPassword",
        "chatcmpl-FAKE0123456789abcdefABCDEF", "pk_live_FAKEabcdefghijklmn0123", "1111111111111111111111111111111111111111"})
    void underAKeyLikeNamePlaceholdersAndConstantsAreNot(String value) {
        assertFalse(HighEntropy.isSecretUnderKeyName(value), value);
    }

    @Test
    void candidateDropsAnAuthSchemeAndRejectsProse() {
        assertEquals("Xk9fQ2mLp8Rt5vWz", HighEntropy.candidate("Bearer Xk9fQ2mLp8Rt5vWz"));
        assertEquals("Xk9fQ2mLp8Rt5vWz", HighEntropy.candidate("  Xk9fQ2mLp8Rt5vWz "));
        assertNull(HighEntropy.candidate("see the vault entry"));
        assertNull(HighEntropy.candidate("Bearer-ish Xk9fQ2mLp8Rt5vWz"));
    }

    @Test
    void entropyIsInBitsPerCharacter() {
        assertEquals(0.0, HighEntropy.entropy("aaaa"), 1e-9);
        assertEquals(2.0, HighEntropy.entropy("abcd"), 1e-9);
    }

    @Test
    void anAccountNumberAndARandomSecretJoinedByAColonIsASecret() {
        assertTrue(HighEntropy.isSecretUnderKeyName("7310553328:AAHq8Zr2Lm5Np0Xv7Tb4Kc1Wd9Ys3Hg6Jf0"));
        assertFalse(HighEntropy.isSecretUnderKeyName("1234:AAHq8Zr2Lm5Np0Xv7Tb4Kc1Wd9Ys3Hg6Jf0"));
        assertFalse(HighEntropy.isSecretUnderKeyName("7310553328:MySecretPasswordIsHere"));
    }

    @Test
    void aDashedAuthSchemeIsOneOfCapitalisedWords() {
        assertEquals("Xk9fQ2mLp8Rt5vWz", HighEntropy.candidate("Api-Token Xk9fQ2mLp8Rt5vWz"));
    }
}
