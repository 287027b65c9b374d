package dev.resilienceharness.secrets;

/**
 * PEM private keys: from {@code -----BEGIN <label>PRIVATE KEY-----} (the label may add {@code RSA },
 * {@code EC }, {@code OPENSSH }, {@code ENCRYPTED }, ...; {@code PGP PRIVATE KEY BLOCK} too) through the end of
 * the matching {@code -----END ...-----} line, or to the end of the text when that line is missing. Public keys
 * and certificates are not secrets and do not match. The header is bounded and the search for the end line runs
 * forward once, so a text full of headers is still read in linear time (an unterminated block swallows the
 * rest of the text, and nothing after it is searched again).
 */
final class PemBlocks {

    private static final String BEGIN = "-----BEGIN";
    private static final String END = "-----END ";
    private static final String DASHES = "-----";
    private static final int MAX_LABEL = 48;

    private PemBlocks() {
    }

    /**
     * Where the private key block whose header starts with the run {@code a[start, runEnd)} ends, or -1 when
     * the run does not start one.
     */
    static int end(char[] a, int start, int runEnd, int to) {
        if (runEnd - start != BEGIN.length() || !Chars.startsWith(a, start, runEnd, BEGIN)) {
            return -1;
        }
        if (runEnd >= to || a[runEnd] != ' ') {
            return -1;
        }
        int labelStart = runEnd + 1;
        int i = labelStart;
        int limit = Math.min(to, labelStart + MAX_LABEL);
        while (i < limit && (Chars.isUpper(a[i]) || Chars.isDigit(a[i]) || a[i] == ' ' || a[i] == '#')) {
            i++;
        }
        if (!Chars.startsWith(a, i, to, DASHES) || !isPrivateKeyLabel(a, labelStart, i)) {
            return -1;
        }
        int bodyStart = i + DASHES.length();
        int endLine = indexOf(a, bodyStart, to, END);
        if (endLine < 0) {
            return to;
        }
        int j = endLine + END.length();
        int closeLimit = Math.min(to, j + MAX_LABEL);
        while (j < closeLimit && a[j] != '-' && a[j] != '\n') {
            j++;
        }
        return Chars.startsWith(a, j, to, DASHES) ? j + DASHES.length() : j;
    }

    private static boolean isPrivateKeyLabel(char[] a, int from, int to) {
        String label = new String(a, from, to - from);
        return label.endsWith("PRIVATE KEY") || label.endsWith("PRIVATE KEY BLOCK");
    }

    private static int indexOf(char[] a, int from, int to, String needle) {
        char first = needle.charAt(0);
        int last = to - needle.length();
        for (int i = from; i <= last; i++) {
            if (a[i] == first && Chars.startsWith(a, i, to, needle)) {
                return i;
            }
        }
        return -1;
    }
}
