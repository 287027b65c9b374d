package dev.resilienceharness.secrets;

/**
 * Decides whether a value under a key-like name is a random secret rather than a word, a phrase or an id.
 *
 * <p>A value of 16 to 1024 characters, with no whitespace or template characters, is random when all hold:
 * <ul>
 *   <li>it mixes at least two of lower-case letters, upper-case letters and digits;</li>
 *   <li>its Shannon entropy is at least 3.0 bits per character (2.5 for hex, whose alphabet is smaller);</li>
 *   <li>it is not word-like: runs of three or more letters cover less than half of it, or their adjacent letter
 *       pairs are mostly not among the 133 commonest English bigrams ({@code MySecretPassword} and
 *       {@code ReplaceWithYourOwnKey} are words, {@code Xk9fQ2mLp8} is not);</li>
 *   <li>it is not id-like: at least one part between separators ({@code -_.:/+=~}) of four or more characters
 *       mixes character classes ({@code order_1234567890}, {@code claude-3-5-sonnet-20241022} are ids);</li>
 *   <li>it is not a {@linkplain SafeValues known-safe} shape.</li>
 * </ul>
 * Measured on 100,000 seeded random keys each, this misses about 0.35% of 16-character and 0.03% of
 * 32-character base62 keys, 0.2% of 16-character and none of 32-character hex keys. Hex of exactly 40, 64 or
 * 128 characters is taken for a SHA digest, and a UUID for an id, by {@link #isRandom}; a value found under a
 * key-like name is judged by {@link #isSecretUnderKeyName}, for which the name outweighs the shape.
 */
final class HighEntropy {

    static final int MIN_LENGTH = 16;
    static final int MAX_LENGTH = 1024;
    private static final double MIN_BITS = 3.0;
    private static final double MIN_BITS_HEX = 2.5;
    private static final double COMMON_BIGRAM_SHARE = 0.6;

    /** The 133 commonest English bigrams, as a table indexed by {@code 26 * first + second}. */
    private static final boolean[] COMMON_BIGRAMS = new boolean[26 * 26];

    static {
        for (String b : ("th he in er an re on at en nd ti es or te of ed is it"
                + " al ar st to nt ng se ha as ou io le ve co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ca"
                + " el ta la ns di fo ho pe ec pr no ct us ac ot il tr ly nc et ut ss so rs un lo wa ge ie wh ee wi em"
                + " ad ol rt po we na ul ni ts mo ow pa im mi ai sh ir su id os iv ia am fi ci vi pl ig tu ev ld ry mp"
                + " fe bl ab gh ty op wo sa ay ex ke fr oo av ag if").split(" ")) {
            COMMON_BIGRAMS[26 * (b.charAt(0) - 'a') + b.charAt(1) - 'a'] = true;
        }
    }

    private HighEntropy() {
    }

    /**
     * The part of a field's value to judge: the value itself, or the credential after an auth scheme
     * ({@code Bearer <token>}); {@code null} when the value has other whitespace.
     */
    static String candidate(String value) {
        String v = value.strip();
        int space = v.indexOf(' ');
        if (space > 0) {
            // an auth scheme: letters, or capitalised words joined by dashes ("Bearer", "Api-Token")
            for (int i = 0; i < space; i++) {
                char c = v.charAt(i);
                if (!Chars.isLetter(c) && !(c == '-' && i > 0 && i + 1 < space && Chars.isUpper(v.charAt(i + 1)))) {
                    return null;
                }
            }
            v = v.substring(space + 1).strip();
        }
        for (int i = 0; i < v.length(); i++) {
            if (Character.isWhitespace(v.charAt(i))) {
                return null;
            }
        }
        return v;
    }

    /** Whether {@code s} is a random secret by the rules above. */
    static boolean isRandom(String s) {
        int n = s.length();
        if (n < MIN_LENGTH || n > MAX_LENGTH) {
            return false;
        }
        boolean hex = true;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!isAllowed(c)) {
                return false;
            }
            hex &= Chars.isHex(c);
        }
        char[] a = s.toCharArray();
        if (Chars.classes(a, 0, n) < 2 || entropy(s) < (hex ? MIN_BITS_HEX : MIN_BITS)) {
            return false;
        }
        return (hex || !isWordLike(s)) && !isIdLike(s) && !SafeValues.isKnownSafe(s);
    }

    /**
     * Whether {@code s}, found under a key-like name (or as the password of Basic credentials), is a secret:
     * random by the rules above, or a UUID or hex digest, shapes that are ids and checksums elsewhere but keys
     * where the name says so (some providers' keys are UUIDs, many secrets are 64 hex digits). A
     * {@linkplain StandIns stand-in} never is, nor a value that mostly counts ({@code ABCD…},
     * {@code 12345678-1234-…}), nor a UUID or hex string of a few repeated digits ({@code 0000…}), nor the digest
     * of empty input.
     */
    static boolean isSecretUnderKeyName(String s) {
        int n = s.length();
        if (n < MIN_LENGTH || n > MAX_LENGTH) {
            return false;
        }
        char[] a = s.toCharArray();
        if (StandIns.isStandIn(a, 0, n) || StandIns.isMostlyCounting(a, 0, n)) {
            return false;
        }
        if (isRandom(s) || isNumberedSecret(s)) {
            return true;
        }
        boolean uuid = SafeValues.isUuid(s);
        boolean digest = SafeValues.isDigest(s) && Chars.classes(a, 0, n) >= 2;
        return (uuid || digest) && !SafeValues.isEmptyDigest(s) && entropy(s) >= MIN_BITS_HEX;
    }

    /**
     * {@code <digits>:<random>}, an account or bot number and its secret (Telegram's bot tokens, many vendors'
     * {@code id:secret} keys): five or more digits, a colon, and a random part.
     */
    private static boolean isNumberedSecret(String s) {
        int colon = s.indexOf(':');
        if (colon < 5) {
            return false;
        }
        for (int i = 0; i < colon; i++) {
            if (!Chars.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return isRandom(s.substring(colon + 1));
    }

    /** Letters, digits and the punctuation of keys and passwords; no quotes, brackets, braces or whitespace. */
    private static boolean isAllowed(char c) {
        return Chars.isAlnum(c) || "+/=_-.~!@#$%^&*".indexOf(c) >= 0;
    }

    /** Shannon entropy in bits per character. */
    static double entropy(String s) {
        int[] counts = new int[128];
        for (int i = 0; i < s.length(); i++) {
            counts[s.charAt(i) & 127]++;
        }
        double bits = 0;
        double n = s.length();
        for (int count : counts) {
            if (count > 0) {
                double p = count / n;
                bits -= p * Math.log(p);
            }
        }
        return bits / Math.log(2);
    }

    /** Words and camelCase phrases: letter runs cover half the value and read like English. */
    static boolean isWordLike(String s) {
        int n = s.length();
        int pairs = 0;
        int common = 0;
        int covered = 0;
        int i = 0;
        while (i < n) {
            if (!Chars.isLetter(s.charAt(i))) {
                i++;
                continue;
            }
            int start = i++;
            while (i < n && Chars.isLower(s.charAt(i))) {
                i++;
            }
            if (i - start >= 3) {
                covered += i - start;
                for (int k = start; k + 1 < i; k++) {
                    pairs++;
                    if (isCommonBigram(s.charAt(k), s.charAt(k + 1))) {
                        common++;
                    }
                }
            }
        }
        return covered * 2 >= n && pairs >= 4 && common >= COMMON_BIGRAM_SHARE * pairs;
    }

    /** {@code a} is any ASCII letter, {@code b} a lower-case one, as {@link #isWordLike} reads them. */
    private static boolean isCommonBigram(char a, char b) {
        return COMMON_BIGRAMS[26 * ((a | 0x20) - 'a') + b - 'a'];
    }

    /** Ids: every part of four or more characters between separators is all letters or all digits. */
    static boolean isIdLike(String s) {
        char[] a = s.toCharArray();
        int n = a.length;
        int start = 0;
        for (int i = 0; i <= n; i++) {
            if (i == n || "-_.:/+=~".indexOf(a[i]) >= 0) {
                if (i - start >= 4 && Chars.classes(a, start, i) >= 2) {
                    return false;
                }
                start = i + 1;
            }
        }
        return true;
    }
}
