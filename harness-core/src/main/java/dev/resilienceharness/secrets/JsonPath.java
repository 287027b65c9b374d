package dev.resilienceharness.secrets;

/**
 * Writes the JSON path of a finding: {@code $}, then {@code .name} for a plain name, {@code ['odd name']} for any
 * other, and {@code [i]} for an array index. A name that itself contains a secret is written masked, so a path
 * never carries one.
 */
final class JsonPath {

    /** The path of the document root. */
    static final String ROOT = "$";

    private JsonPath() {
    }

    /** Appends the step to {@code name}; {@code secret} says whether the name holds a secret. */
    static StringBuilder appendName(StringBuilder path, String name, boolean secret) {
        String shown = secret ? Finding.mask(name) : name;
        if (isPlain(shown)) {
            return path.append('.').append(shown);
        }
        path.append("['");
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            if (c == '\'' || c == '\\') {
                path.append('\\').append(c);
            } else if (c < 0x20) {
                path.append(String.format("\\u%04x", (int) c));
            } else {
                path.append(c);
            }
        }
        return path.append("']");
    }

    /** Appends the step to array element {@code index}. */
    static StringBuilder appendIndex(StringBuilder path, int index) {
        return path.append('[').append(index).append(']');
    }

    /** Letters, digits, {@code _}, {@code -} and {@code $}, not starting with a digit or {@code -}. */
    private static boolean isPlain(String name) {
        if (name.isEmpty() || Chars.isDigit(name.charAt(0)) || name.charAt(0) == '-') {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!Chars.isToken(c) && c != '$') {
                return false;
            }
        }
        return true;
    }
}
