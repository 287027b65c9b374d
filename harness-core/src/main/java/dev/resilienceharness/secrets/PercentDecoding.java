package dev.resilienceharness.secrets;

/**
 * Undoes URL percent-encoding ({@code %2D}, multi-byte UTF-8 sequences too) and remembers, for every decoded
 * character, where it came from, so a secret found in the decoded text can be cut out of the encoded one.
 * {@code +} is left alone: in a path or a base64 value it is a plus, not a space. Malformed escapes stay as
 * they are. One pass, no backtracking.
 */
final class PercentDecoding {

    private PercentDecoding() {
    }

    /**
     * Decoded text with its way back to the source.
     *
     * @param text     the decoded characters; only the first {@code length} count
     * @param length   how many decoded characters there are
     * @param rawIndex for each decoded index {@code i}, where its encoded form starts in the source;
     *                 {@code rawIndex[length]} is the end of the source range
     */
    record Decoded(char[] text, int length, int[] rawIndex) {
    }

    /** Decodes {@code a[from, to)}. */
    static Decoded decode(char[] a, int from, int to) {
        char[] out = new char[to - from];
        int[] raw = new int[to - from + 1];
        int n = 0;
        int i = from;
        while (i < to) {
            int b = escapedByte(a, i, to);
            if (b < 0) {
                raw[n] = i;
                out[n++] = a[i++];
            } else if (b < 0x80) {
                raw[n] = i;
                out[n++] = (char) b;
                i += 3;
            } else {
                int consumed = decodeUtf8(a, i, to, out, raw, n, b);
                if (consumed > 0) {
                    n += Character.charCount(Character.codePointAt(out, n));
                    i += consumed;
                } else {
                    raw[n] = i;
                    out[n++] = a[i++];
                }
            }
        }
        raw[n] = to;
        return new Decoded(out, n, raw);
    }

    /** Whether {@code a[from, to)} holds at least one well-formed {@code %XX} escape. */
    static boolean hasEscape(char[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            if (escapedByte(a, i, to) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The byte {@code %XX} at {@code i} stands for, or -1. */
    static int escapedByte(char[] a, int i, int to) {
        if (a[i] != '%' || i + 2 >= to || !Chars.isHex(a[i + 1]) || !Chars.isHex(a[i + 2])) {
            return -1;
        }
        return Chars.hexValue(a[i + 1]) << 4 | Chars.hexValue(a[i + 2]);
    }

    /** Decodes one UTF-8 sequence of escapes into {@code out[n..]}; returns the source length used, or 0. */
    private static int decodeUtf8(char[] a, int i, int to, char[] out, int[] raw, int n, int lead) {
        int extra;
        int cp;
        if (lead >= 0xC2 && lead <= 0xDF) {
            extra = 1;
            cp = lead & 0x1F;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            extra = 2;
            cp = lead & 0x0F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            extra = 3;
            cp = lead & 0x07;
        } else {
            return 0;
        }
        int j = i + 3;
        for (int k = 0; k < extra; k++, j += 3) {
            if (j >= to) {
                return 0;
            }
            int b = escapedByte(a, j, to);
            if (b < 0 || (b & 0xC0) != 0x80) {
                return 0;
            }
            cp = cp << 6 | b & 0x3F;
        }
        if (cp < (extra == 1 ? 0x80 : extra == 2 ? 0x800 : 0x10000) || cp > 0x10FFFF
                || cp >= 0xD800 && cp <= 0xDFFF) {
            return 0;
        }
        int written = Character.toChars(cp, out, n);
        for (int k = 0; k < written; k++) {
            raw[n + k] = i;
        }
        return j - i;
    }
}
