package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
