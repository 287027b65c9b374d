package dev.resilienceharness.secrets;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * JSON Web Tokens: {@code header.payload.signature}, each part base64url, header and payload JSON objects (so
 * both start with {@code eyJ}, the encoding of <code>{"</code>). An unsigned token ({@code "alg": "none"}) has an
 * empty signature and ends at the second dot; it still carries its claims and is accepted by servers that
 * trust {@code none}, so it is a secret too. Looks at most two runs past the first, so the work stays
 * proportional to the token.
 */
final class JsonWebTokens {

    private static final int MIN_PART = 10;
    private static final int MIN_SIGNATURE = 16;
    /** The sample's payload is about a hundred characters; a longer one is read no further. */
    private static final int MAX_SAMPLE_PAYLOAD = 256;

    private JsonWebTokens() {
    }

    /**
     * Where the token starting with the run {@code a[start, runEnd)} ends, or -1 when there is none.
     *
     * @param to the end of the text
     */
    static int end(char[] a, int start, int runEnd, int to) {
        if (runEnd - start < MIN_PART || !Chars.startsWith(a, start, runEnd, "eyJ")) {
            return -1;
        }
        if (runEnd >= to || a[runEnd] != '.') {
            return -1;
        }
        int payload = runEnd + 1;
        int payloadEnd = runOf(a, payload, to);
        if (payloadEnd - payload < MIN_PART || !Chars.startsWith(a, payload, payloadEnd, "eyJ")) {
            return -1;
        }
        if (payloadEnd >= to || a[payloadEnd] != '.') {
            return -1;
        }
        int signature = payloadEnd + 1;
        int signatureEnd = runOf(a, signature, to);
        if (signatureEnd == signature) {
            // unsigned, unless more dots or an ellipsis say the token is only shown cut short
            boolean cut = signatureEnd < to && a[signatureEnd] == '.' || StandIns.isTruncatedAt(a, signatureEnd, to);
            return cut ? -1 : signatureEnd;
        }
        return signatureEnd - signature >= MIN_SIGNATURE ? signatureEnd : -1;
    }

    /**
     * Whether the token {@code a[start, end)} is the sample jwt.io shows, in any of its versions: its payload
     * claims {@code "sub": "1234567890"} and {@code "name": "John Doe"}, whatever the signature.
     */
    static boolean isSample(char[] a, int start, int end) {
        int payload = start;
        while (payload < end && a[payload] != '.') {
            payload++;
        }
        int payloadEnd = payload + 1;
        while (payloadEnd < end && a[payloadEnd] != '.') {
            payloadEnd++;
        }
        if (payloadEnd - payload - 1 > MAX_SAMPLE_PAYLOAD) {
            return false;
        }
        byte[] claims;
        try {
            claims = Base64.getUrlDecoder().decode(new String(a, payload + 1, payloadEnd - payload - 1));
        } catch (IllegalArgumentException e) {
            return false;
        }
        String json = new String(claims, StandardCharsets.UTF_8).replace(" ", "");
        return json.contains("\"sub\":\"1234567890\"") && json.contains("\"name\":\"JohnDoe\"");
    }

    private static int runOf(char[] a, int from, int to) {
        int i = from;
        while (i < to && Chars.isToken(a[i])) {
            i++;
        }
        return i;
    }
}
