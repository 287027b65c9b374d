package dev.resilienceharness.secrets;

/** Character classes the token scanners share; ASCII only, so every test is a table look-up or a compare. */
final class Chars {

    private static final boolean[] TOKEN = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 'a' + 'A'] = true;
        }
        TOKEN['_'] = true;
        TOKEN['-'] = true;
    }

    private Chars() {
    }

    /** Letters, digits, {@code _} and {@code -}: the characters of API keys and base64url. */
    static boolean isToken(char c) {
        return c < 128 && TOKEN[c];
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    static boolean isLower(char c) {
        return c >= 'a' && c <= 'z';
    }

    static boolean isLetter(char c) {
        return isUpper(c) || isLower(c);
    }

    static boolean isAlnum(char c) {
        return isLetter(c) || isDigit(c);
    }

    static boolean isHex(char c) {
        return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    /** The value of a hex digit; the caller has checked {@link #isHex}. */
    static int hexValue(char c) {
        return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    }

    /** Whether {@code a[from, to)} starts with {@code prefix}. */
    static boolean startsWith(char[] a, int from, int to, String prefix) {
        int n = prefix.length();
        if (to - from < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (a[from + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether every character of {@code a[from, to)} is a letter or digit. */
    static boolean allAlnum(char[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isAlnum(a[i])) {
                return false;
            }
        }
        return true;
    }

    /** How many of lower-case letters, upper-case letters and digits occur in {@code a[from, to)}: 0 to 3. */
    static int classes(char[] a, int from, int to) {
        boolean lower = false;
        boolean upper = false;
        boolean digit = false;
        for (int i = from; i < to; i++) {
            char c = a[i];
            lower |= isLower(c);
            upper |= isUpper(c);
            digit |= isDigit(c);
        }
        return (lower ? 1 : 0) + (upper ? 1 : 0) + (digit ? 1 : 0);
    }
}
