package dev.resilienceharness.secrets;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Decodes a base64 or hex run of a string into the text it encodes, for the scan of encoded secrets; a run
 * that is not valid, or that decodes to bytes other than printable ASCII (an image, a digest, a binary key),
 * gives {@code null}, so only text that could hold a written secret is read again.
 */
final class Encodings {

    private Encodings() {
    }

    /** The text that base64 (standard or URL-safe, padding optional) {@code a[from, to)} encodes, or {@code null}. */
    static String base64Text(char[] a, int from, int to) {
        if ((to - from) % 4 == 1) {
            return null;
        }
        char[] normal = new char[to - from];
        for (int i = from; i < to; i++) {
            char c = a[i];
            normal[i - from] = c == '-' ? '+' : c == '_' ? '/' : c;
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(new String(normal));
        } catch (IllegalArgumentException e) {
            return null;
        }
        return text(bytes, bytes.length);
    }

    /** The text that hex {@code a[from, to)} encodes, or {@code null}. */
    static String hexText(char[] a, int from, int to) {
        if ((to - from) % 2 != 0) {
            return null;
        }
        byte[] bytes = new byte[(to - from) / 2];
        for (int i = 0; i < bytes.length; i++) {
            int hi = Character.digit(a[from + 2 * i], 16);
            int lo = Character.digit(a[from + 2 * i + 1], 16);
            if (hi < 0 || lo < 0) {
                return null;
            }
            bytes[i] = (byte) (hi << 4 | lo);
        }
        return text(bytes, bytes.length);
    }

    /** {@code bytes} as text when every byte is printable ASCII, a tab or a line break; else {@code null}. */
    private static String text(byte[] bytes, int n) {
        for (int i = 0; i < n; i++) {
            byte b = bytes[i];
            if ((b < 0x20 || b > 0x7e) && b != '\t' && b != '\n' && b != '\r') {
                return null;
            }
        }
        return new String(bytes, 0, n, StandardCharsets.US_ASCII);
    }
}
