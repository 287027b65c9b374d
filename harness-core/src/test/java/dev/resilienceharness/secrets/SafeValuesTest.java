package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SafeValuesTest {

    @ParameterizedTest
    @ValueSource(strings = {"chatcmpl-FAKE0123456789", "call_FAKE0123456789", "fp_44709d6fcb", "req_0123abcd",
        "msg_01FAKE", "toolu_01FAKE", "123e4567-e89b-12d3-a456-426614174000", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "data:image/png;base64,iVBORw0KGgo",
        "Bearer [REDACTED:jwt:0123abcd]", "pk_live_FAKEabcdefghijklmn0123", "pk_test_FAKEabcdefghijklmn0123"})
    void knownSafeShapes(String value) {
        assertTrue(SafeValues.isKnownSafe(value), value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Xk9fQ2mLp8Rt5vWz", "9f86d081884c7d65", "123e4567e89b12d3a456426614174000x"})
    void otherValues(String value) {
        assertFalse(SafeValues.isKnownSafe(value), value);
    }

    @Test
    void knowsTheDigestsOfEmptyInput() {
        assertTrue(SafeValues.isEmptyDigest("d41d8cd98f00b204e9800998ecf8427e"));
        assertTrue(SafeValues.isEmptyDigest("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
        assertTrue(SafeValues.isEmptyDigest("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        assertFalse(SafeValues.isEmptyDigest("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"));
    }

    @Test
    void recognisesBase64DataUris() {
        char[] image = "data:image/jpeg;base64,/9j/4AAQSkZJRg==".toCharArray();
        assertTrue(SafeValues.isBase64DataUri(image, 0, image.length));
        char[] text = "data:text/plain,hello".toCharArray();
        assertFalse(SafeValues.isBase64DataUri(text, 0, text.length));
    }
}
