package dev.resilienceharness.secrets;

import java.util.Base64;

/**
 * PEM private keys: from {@code -----BEGIN <label>PRIVATE KEY-----} (the label may add {@code RSA },
 * {@code EC }, {@code OPENSSH }, {@code ENCRYPTED }, ...; {@code PGP PRIVATE KEY BLOCK} too) through the end of
 * the matching {@code -----END ...-----} line, or to the end of the text when that line is missing. Public keys
 * and certificates are not secrets and do not match, and neither does armour with no key inside (nothing,
 * whitespace, {@code ...}, prose or a placeholder such as {@code YOUR_KEY_HERE} between the lines): a key's
 * body holds at least one run of {@value #MIN_MATERIAL} base64 characters that is not a lower-case word. The
 * header is bounded and the search for the end line runs forward once, so a text full of headers is still read
 * in linear time (an unterminated block swallows the rest of the text, and nothing after it is searched again;
 * the look at the body stops at the next {@code -----}, so it never passes another header).
 */
final class PemBlocks {

    private static final String BEGIN = "-----BEGIN";
    private static final String END = "-----END ";
    private static final String DASHES = "-----";
    private static final int MAX_LABEL = 48;
    private static final int MIN_MATERIAL = 4;

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
        // the body runs to the next dashes: the end line, or another header when the end line is missing
        int next = indexOf(a, bodyStart, to, DASHES);
        int bodyLimit = next < 0 ? to : next;
        if (!hasKeyMaterial(a, bodyStart, bodyLimit) || StandIns.hasPlaceholderWord(a, bodyStart, bodyLimit)
                || isEncodedText(a, bodyStart, bodyLimit)) {
            return -1;
        }
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

    /**
     * Whether {@code a[from, to)} holds base64 key material: a run of at least {@link #MIN_MATERIAL} base64
     * characters that is neither a lower-case word nor one character repeated, so that {@code ...},
     * {@code <your key here>}, {@code XXXXXXXX} or "contents omitted" are no key.
     */
    private static boolean hasKeyMaterial(char[] a, int from, int to) {
        int run = 0;
        boolean notWord = false;
        boolean varied = false;
        for (int i = from; i < to; i++) {
            char c = a[i];
            if (Chars.isAlnum(c) || c == '+' || c == '/' || c == '=') {
                varied |= run > 0 && c != a[i - 1];
                run++;
                notWord |= !Chars.isLower(c);
                if (run >= MIN_MATERIAL && notWord && varied) {
                    return true;
                }
            } else {
                run = 0;
                notWord = false;
                varied = false;
            }
        }
        return false;
    }

    /**
     * Whether the body {@code a[from, to)} is base64 of printable text ({@code YWJjZGVm…}, the alphabet): key
     * material is binary (DER starts with a SEQUENCE byte, OpenSSH's with its magic and a zero byte).
     */
    static boolean isEncodedText(char[] a, int from, int to) {
        StringBuilder base64 = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            char c = a[i];
            if (Chars.isAlnum(c) || c == '+' || c == '/' || c == '=') {
                base64.append(c);
            } else if (!Character.isWhitespace(c)) {
                return false;
            }
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.toString());
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (bytes.length == 0) {
            return false;
        }
        for (byte b : bytes) {
            if (b < 0x20 || b > 0x7e) {
                return false;
            }
        }
        return true;
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
