package dev.resilienceharness.secrets;

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

    private static int runOf(char[] a, int from, int to) {
        int i = from;
        while (i < to && Chars.isToken(a[i])) {
            i++;
        }
        return i;
    }
}
