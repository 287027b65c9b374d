package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JsonWebTokensTest {

    private static final String HEADER = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";
    private static final String PAYLOAD = "eyJzdWIiOiJmYWtlIn0";
    private static final String SIGNATURE = "FAKE_signature-0123456789abcdefghijklmnopq";

    private static int end(String text) {
        char[] a = text.toCharArray();
        int runEnd = 0;
        while (runEnd < a.length && Chars.isToken(a[runEnd])) {
            runEnd++;
        }
        return JsonWebTokens.end(a, 0, runEnd, a.length);
    }

    @Test
    void matchesThreePartsUpToTheSignaturesEnd() {
        String jwt = HEADER + "." + PAYLOAD + "." + SIGNATURE;
        assertEquals(jwt.length(), end(jwt + " trailing"));
        assertEquals(jwt.length(), end(jwt + ".more"));
    }

    @Test
    void anUnsignedTokenEndsAtItsLastDot() {
        // {"alg":"none","typ":"JWT"}
        String unsigned = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + PAYLOAD + ".";
        assertEquals(unsigned.length(), end(unsigned));
        assertEquals(unsigned.length(), end(unsigned + " sent as is"));
        assertEquals(unsigned.length(), end(unsigned + "\"&next=1"));
    }

    @Test
    void aTokenShownCutShortIsNotUnsigned() {
        assertEquals(-1, end(HEADER + "." + PAYLOAD + ".."));
        assertEquals(-1, end(HEADER + "." + PAYLOAD + "..."));
        assertEquals(-1, end(HEADER + "." + PAYLOAD + ".\u2026"));
    }

    @Test
    void needsJsonHeaderAndPayloadAndALongEnoughSignature() {
        assertEquals(-1, end(HEADER));
        assertEquals(-1, end(HEADER + "." + PAYLOAD));
        assertEquals(-1, end(HEADER + "." + PAYLOAD + ".short"));
        assertEquals(-1, end(HEADER + ".bm90IGpzb24gYXQgYWxs." + SIGNATURE));
        assertEquals(-1, end("eyJ.eyJ.x"));
    }

    private static String token(String claims, String signature) {
        return HEADER + "." + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "." + signature;
    }

    @Test
    void theJwtIoSampleIsRecognisedByItsClaimsInAnyVersion() {
        String current = token("{\"sub\":\"1234567890\",\"name\":\"John Doe\",\"admin\":true,\"iat\":1516239022}",
                "KMUFsIDTnFmyG3nMiGM6H9FNFUROf3wh7SmqJp-QV30");
        assertTrue(JsonWebTokens.isSample(current.toCharArray(), 0, current.length()));
        String spaced = token("{\"sub\": \"1234567890\", \"name\": \"John Doe\"}", SIGNATURE);
        assertTrue(JsonWebTokens.isSample(spaced.toCharArray(), 0, spaced.length()));
        String other = token("{\"sub\":\"1234567890\",\"name\":\"Jane Roe\"}", SIGNATURE);
        assertFalse(JsonWebTokens.isSample(other.toCharArray(), 0, other.length()));
        String real = HEADER + "." + PAYLOAD + "." + SIGNATURE;
        assertFalse(JsonWebTokens.isSample(real.toCharArray(), 0, real.length()));
    }
}
