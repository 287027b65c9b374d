package dev.resilienceharness.secrets;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * HTTP {@code Basic} credentials: the scheme word, one space and base64 of {@code user:password}. The scanner
 * looks inside the decoded pair, so a key used as a Basic password is found under its own rule.
 */
final class BasicCredentials {

    private static final int MIN_TOKEN = 8;

    private BasicCredentials() {
    }

    /** Whether the run {@code a[start, end)} is the scheme word {@code Basic}. */
    static boolean isScheme(char[] a, int start, int end) {
        return end - start == 5 && (a[start] == 'B' || a[start] == 'b') && Chars.startsWith(a, start + 1, end, "asic");
    }

    /**
     * Where the base64 token after the scheme word ending at {@code schemeEnd} ends, or -1 when none follows;
     * the token starts at {@code schemeEnd + 1}.
     */
    static int tokenEnd(char[] a, int schemeEnd, int to) {
        if (schemeEnd >= to || a[schemeEnd] != ' ') {
            return -1;
        }
        int i = schemeEnd + 1;
        while (i < to && (Chars.isAlnum(a[i]) || a[i] == '+' || a[i] == '/')) {
            i++;
        }
        for (int pad = 0; pad < 2 && i < to && a[i] == '='; pad++) {
            i++;
        }
        if (i - schemeEnd - 1 < MIN_TOKEN || i < to && Chars.isToken(a[i])) {
            return -1;
        }
        return i;
    }

    /** The decoded {@code user:password} of the token {@code a[from, to)}, or {@code null} when it is not one. */
    static String decode(char[] a, int from, int to) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(new String(a, from, to - from));
        } catch (IllegalArgumentException e) {
            return null;
        }
        String pair;
        try {
            pair = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        if (pair.indexOf(':') < 0) {
            return null;
        }
        for (int i = 0; i < pair.length(); i++) {
            if (Character.isISOControl(pair.charAt(i))) {
                return null;
            }
        }
        return pair;
    }
}
