package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class EncodingsTest {

    private static final String TEXT = "api_key=FAKEaB3dE5gH7jK9mN1pQ3rS";

    private static String base64(String encoded) {
        return Encodings.base64Text(encoded.toCharArray(), 0, encoded.length());
    }

    private static String hex(String encoded) {
        return Encodings.hexText(encoded.toCharArray(), 0, encoded.length());
    }

    @Test
    void base64OfTextIsDecodedWithOrWithoutPaddingInEitherAlphabet() {
        byte[] bytes = (TEXT + "?>").getBytes(StandardCharsets.US_ASCII);
        assertEquals(TEXT + "?>", base64(Base64.getEncoder().encodeToString(bytes)));
        assertEquals(TEXT + "?>", base64(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes)));
    }

    @Test
    void hexOfTextIsDecodedInEitherCase() {
        String hex = HexFormat.of().formatHex(TEXT.getBytes(StandardCharsets.US_ASCII));
        assertEquals(TEXT, hex(hex));
        assertEquals(TEXT, hex(hex.toUpperCase()));
    }

    @Test
    void binaryAndInvalidRunsGiveNothing() {
        assertNull(base64(Base64.getEncoder().encodeToString(new byte[] {0x30, (byte) 0x82, 0x04, 0x41})));
        assertNull(base64("abcde"), "a length of 4n+1 is no base64");
        assertNull(hex("e3b0c44298fc1c149afbf4c8996fb924"), "a digest is binary");
        assertNull(hex("abc"), "odd length");
    }
}
