package dev.resilienceharness.json;

import java.util.Comparator;

/**
 * Orders strings by Unicode code point, as Python compares {@code str}: unlike {@link String#compareTo}, which
 * compares UTF-16 units, a char above U+FFFF (a surrogate pair) sorts after U+E000..U+FFFF. A lone surrogate
 * counts as the code point of its value, as in Python.
 */
final class CodePointOrder implements Comparator<String> {

    static final CodePointOrder INSTANCE = new CodePointOrder();

    private CodePointOrder() {
    }

    @Override
    public int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (!Character.isSurrogate(x) && !Character.isSurrogate(y)) {
                    return x - y;
                }
                return byCodePoints(a, b, i);
            }
        }
        return a.length() - b.length();
    }

    /** From the code point holding the first differing unit; the prefixes before it are equal. */
    private static int byCodePoints(String a, String b, int differing) {
        int i = differing > 0 && Character.isHighSurrogate(a.charAt(differing - 1)) ? differing - 1 : differing;
        while (i < a.length() && i < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(i);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
        }
        return a.length() - b.length();
    }
}
