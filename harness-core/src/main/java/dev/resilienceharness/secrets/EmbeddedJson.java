package dev.resilienceharness.secrets;

/**
 * JSON carried inside a JSON string, such as a tool call's {@code arguments}: a string whose trimmed text starts
 * with <code>{</code> and ends with <code>}</code>, or starts with {@code [} and ends with {@code ]}. Whether it
 * really parses is found out by parsing it; this test only keeps the parser away from ordinary text.
 */
final class EmbeddedJson {

    /** How deep JSON-in-a-string-in-JSON is followed; deeper strings are scanned as text. */
    static final int MAX_DEPTH = 4;

    private EmbeddedJson() {
    }

    /** Whether {@code a[from, to)} may be a JSON object or array. */
    static boolean looksLike(char[] a, int from, int to) {
        int s = from;
        int e = to - 1;
        while (s < to && isSpace(a[s])) {
            s++;
        }
        while (e > s && isSpace(a[e])) {
            e--;
        }
        if (e <= s) {
            return false;
        }
        return a[s] == '{' && a[e] == '}' || a[s] == '[' && a[e] == ']';
    }

    /** Whether {@code text} may be a JSON object or array. */
    static boolean looksLike(String text) {
        return looksLike(text.toCharArray(), 0, text.length());
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }
}
