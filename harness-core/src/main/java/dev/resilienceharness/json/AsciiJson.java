package dev.resilienceharness.json;

import tools.jackson.databind.JsonNode;

/**
 * Scalars written the way Python's {@code json.dumps} writes them with its default {@code ensure_ascii=True}:
 * strings with every char outside {@code ' '..'~'} escaped, numbers as {@code int} and {@code float} print.
 */
final class AsciiJson {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private AsciiJson() {
    }

    /**
     * Appends a JSON string literal. Python's rule (its {@code S_CHAR}): {@code ' '..'~'} stay, except {@code "}
     * and {@code \}; {@code \b \f \n \r \t} get short escapes; everything else, DEL (0x7f) included, becomes
     * {@code \}{@code uXXXX} per UTF-16 unit, so chars above U+FFFF come out as their surrogate pair.
     */
    static void appendString(String s, StringBuilder out) {
        out.append('"');
        int run = 0;
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= ' ' && c <= '~' && c != '"' && c != '\\') {
                continue;
            }
            out.append(s, run, i);
            run = i + 1;
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> out.append('\\').append('u')
                        .append(HEX[c >>> 12]).append(HEX[(c >>> 8) & 0xf])
                        .append(HEX[(c >>> 4) & 0xf]).append(HEX[c & 0xf]);
            }
        }
        out.append(s, run, n).append('"');
    }

    /**
     * Appends a scalar node: a string, a number, a boolean or null.
     *
     * @throws IllegalArgumentException for a NaN or infinite number, and for node kinds JSON text cannot hold
     */
    static void appendScalar(JsonNode node, StringBuilder out) {
        switch (node.getNodeType()) {
            case STRING -> appendString(node.stringValue(), out);
            case NUMBER -> appendNumber(node, out);
            case BOOLEAN -> out.append(node.booleanValue() ? "true" : "false");
            case NULL -> out.append("null");
            default -> throw new IllegalArgumentException("a " + node.getNodeType() + " node has no JSON form");
        }
    }

    /** Integers of any size as plain digits; floats, float32 and BigDecimal alike, as Python's float repr. */
    private static void appendNumber(JsonNode node, StringBuilder out) {
        if (node.isIntegralNumber()) {
            if (node.isBigInteger()) {
                out.append(node.bigIntegerValue());
            } else {
                out.append(node.longValue());
            }
        } else if (node.isBigDecimal()) {
            // Jackson refuses to narrow an out-of-range decimal; BigDecimal gives the infinity PythonFloat rejects
            PythonFloat.append(node.decimalValue().doubleValue(), out);
        } else {
            PythonFloat.append(node.doubleValue(), out);
        }
    }
}
