package dev.resilienceharness.secrets;

import java.util.Set;

/**
 * Values that stand where a secret would, but are none: the example keys providers print in their own
 * documentation ({@code AKIAIOSFODNN7EXAMPLE}), obvious placeholders ({@code YOUR_API_KEY},
 * {@code …RANDOMSTRINGHERE}, the alphabet), and masked displays of a key ({@code sk-proj-Ab12…Yz90},
 * {@code sk-xxxx…}). These checks run only on a value a rule has already matched, so what they cost does not
 * grow with the text.
 */
final class StandIns {

    /**
     * Example credentials published in providers' documentation, exactly as printed there. AWS marks all of its
     * examples with {@code EXAMPLE}, which {@link #PLACEHOLDER_WORDS} covers.
     */
    private static final Set<String> DOCUMENTED = Set.of(
            // Stripe's API reference
            "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
            "pk_test_TYooMQauvdEDq54NiTphI7jx",
            // GitHub's REST API documentation
            "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
            // the token jwt.io shows
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5"
                    + "MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
            // the example UUIDs of RFC 4122 and of the UUID articles everyone copies from
            "123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426655440000",
            "550e8400-e29b-41d4-a716-446655440000", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6");

    /** Words that mark a template value, compared in lower case with everything but letters and digits left out. */
    private static final String[] PLACEHOLDER_WORDS = {"example", "placeholder", "yourapikey", "yourkey",
        "yourtoken", "yoursecret", "yourpassword", "randomstring", "stringhere", "keyhere", "tokenhere",
        "secrethere", "replaceme", "replacewith", "changeme", "insertyour", "redacted"};

    /** Counting runs at least this long on average ({@code abcdef…}, {@code 0123…}) make a key body a placeholder. */
    private static final int MIN_MEAN_RUN = 8;

    private StandIns() {
    }

    /** Whether {@code a[from, to)} is a documented example or an obvious placeholder (see the class comment). */
    static boolean isStandIn(char[] a, int from, int to) {
        return DOCUMENTED.contains(new String(a, from, to - from)) || hasPlaceholderWord(a, from, to)
                || hasMaskRun(a, from, to) || hasEllipsis(a, from, to);
    }

    /** {@link #isStandIn(char[], int, int)} for a string. */
    static boolean isStandIn(String value) {
        return isStandIn(value.toCharArray(), 0, value.length());
    }

    /**
     * Whether a key body {@code a[from, to)} only counts: its letters and digits make ascending runs
     * ({@code ABC…Z}, {@code 0123…}) of eight or more characters on average. Random bodies average about one.
     */
    static boolean isCounting(char[] a, int from, int to) {
        return meanAscendingRun(a, from, to) >= MIN_MEAN_RUN;
    }

    /**
     * The mean length of the ascending runs (each character one more than the one before) among the letters
     * and digits of {@code a[from, to)}; 0 when there are none.
     */
    static double meanAscendingRun(char[] a, int from, int to) {
        int chars = 0;
        int runs = 0;
        char previous = 0;
        for (int i = from; i < to; i++) {
            char c = a[i];
            if (!Chars.isAlnum(c)) {
                continue;
            }
            if (chars == 0 || c != previous + 1) {
                runs++;
            }
            chars++;
            previous = c;
        }
        return runs == 0 ? 0 : (double) chars / runs;
    }

    /**
     * Whether the text right after a key, {@code a[end, to)}, shows that the key is cut short for display:
     * {@code …}, {@code ..}, {@code *} or {@code •}.
     */
    static boolean isTruncatedAt(char[] a, int end, int to) {
        if (end >= to) {
            return false;
        }
        char c = a[end];
        return c == '\u2026' || c == '*' || c == '\u2022' || c == '.' && end + 1 < to && a[end + 1] == '.';
    }

    /** Whether {@code a[from, to)} holds a template word ({@code YOUR_API_KEY}, {@code RANDOMSTRINGHERE}, ...). */
    static boolean hasPlaceholderWord(char[] a, int from, int to) {
        char[] folded = new char[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = a[i];
            if (Chars.isAlnum(c)) {
                folded[n++] = Chars.isUpper(c) ? (char) (c | 0x20) : c;
            }
        }
        for (String word : PLACEHOLDER_WORDS) {
            if (indexOf(folded, n, word) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Four or more of {@code x}, {@code X}, {@code *}, {@code #} or {@code •} in a row: a masked or template key. */
    private static boolean hasMaskRun(char[] a, int from, int to) {
        int run = 0;
        char previous = 0;
        for (int i = from; i < to; i++) {
            char c = a[i];
            boolean mask = c == 'x' || c == 'X' || c == '*' || c == '#' || c == '\u2022';
            run = mask && (run == 0 || c == previous) ? run + 1 : mask ? 1 : 0;
            if (run >= 4) {
                return true;
            }
            previous = c;
        }
        return false;
    }

    /** {@code ...} or {@code …}: a key shown with its middle left out. */
    private static boolean hasEllipsis(char[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            if (a[i] == '\u2026' || a[i] == '.' && i + 2 < to && a[i + 1] == '.' && a[i + 2] == '.') {
                return true;
            }
        }
        return false;
    }

    private static int indexOf(char[] a, int n, String word) {
        int last = n - word.length();
        for (int i = 0; i <= last; i++) {
            int k = 0;
            while (k < word.length() && a[i + k] == word.charAt(k)) {
                k++;
            }
            if (k == word.length()) {
                return i;
            }
        }
        return -1;
    }
}
