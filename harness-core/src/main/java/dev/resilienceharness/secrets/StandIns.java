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

    /** Which lengths {@link #DOCUMENTED} holds, so other values are ruled out without a string. */
    private static final boolean[] DOCUMENTED_LENGTHS = new boolean[256];

    static {
        for (String example : DOCUMENTED) {
            DOCUMENTED_LENGTHS[example.length()] = true;
        }
    }

    /** Words that mark a template value, compared in lower case with everything but letters and digits left out. */
    private static final String[] PLACEHOLDER_WORDS = {"example", "placeholder", "yourapikey", "yourkey",
        "yourtoken", "yoursecret", "yourpassword", "randomstring", "stringhere", "keyhere", "tokenhere",
        "secrethere", "replaceme", "replacewith", "changeme", "insertyour", "redacted"};

    /** What follows "your" in a template value. */
    private static final String[] YOUR_WHAT = {"key", "token", "secret", "password", "here"};

    /** Runs this long on average ({@code abcdef…}, {@code 0123…}) make a key body a placeholder. */
    private static final int MIN_MEAN_RUN = 8;
    /** The shortest run that counts towards {@link #isMostlyCounting}. */
    private static final int MIN_COUNTING_RUN = 4;

    private StandIns() {
    }

    /** Whether {@code a[from, to)} is a documented example or an obvious placeholder (see the class comment). */
    static boolean isStandIn(char[] a, int from, int to) {
        return isDocumented(a, from, to) || hasPlaceholderWord(a, from, to)
                || hasMaskRun(a, from, to) || hasEllipsis(a, from, to);
    }

    private static boolean isDocumented(char[] a, int from, int to) {
        int n = to - from;
        return n < DOCUMENTED_LENGTHS.length && DOCUMENTED_LENGTHS[n] && DOCUMENTED.contains(new String(a, from, n));
    }

    /** {@link #isStandIn(char[], int, int)} for a string. */
    static boolean isStandIn(String value) {
        return isStandIn(value.toCharArray(), 0, value.length());
    }

    /**
     * Whether a key body {@code a[from, to)} only counts: its letters and, apart from them, its digits make
     * ascending runs ({@code ABC…Z}, {@code AbCd…}, {@code 0123…}, {@code a1b2c3…}) of eight or more characters
     * on average. Random bodies average little more than one.
     */
    static boolean isCounting(char[] a, int from, int to) {
        int[] counted = countRuns(a, from, to, Integer.MAX_VALUE);
        return counted[1] > 0 && counted[0] >= MIN_MEAN_RUN * counted[1];
    }

    /**
     * Whether at least half of the letters and digits of a value {@code a[from, to)} lie in ascending runs of
     * four or more ({@code xoxb-12345-67890-AbCdEf…}, {@code 12345678-1234-1234-…}); a random value has
     * almost none.
     */
    static boolean isMostlyCounting(char[] a, int from, int to) {
        int[] counted = countRuns(a, from, to, MIN_COUNTING_RUN);
        return counted[0] > 0 && 2 * counted[2] >= counted[0];
    }

    /**
     * Counts the letters and digits of {@code a[from, to)}, the ascending runs they make (each character one
     * more than the one before; letters and digits are followed separately, so {@code a1b2} is two runs, and
     * letters compare without case) and how many characters lie in runs of at least {@code long} characters.
     *
     * @return characters, runs and characters in long runs
     */
    private static int[] countRuns(char[] a, int from, int to, int longRun) {
        int chars = 0;
        int runs = 0;
        int inLong = 0;
        char lastLetter = 0;
        int letterRun = 0;
        char lastDigit = 0;
        int digitRun = 0;
        for (int i = from; i < to; i++) {
            char c = a[i];
            if (Chars.isLetter(c)) {
                c = (char) (c | 0x20);
                if (letterRun > 0 && c == lastLetter + 1) {
                    letterRun++;
                } else {
                    inLong += letterRun >= longRun ? letterRun : 0;
                    letterRun = 1;
                    runs++;
                }
                lastLetter = c;
                chars++;
            } else if (Chars.isDigit(c)) {
                if (digitRun > 0 && c == lastDigit + 1) {
                    digitRun++;
                } else {
                    inLong += digitRun >= longRun ? digitRun : 0;
                    digitRun = 1;
                    runs++;
                }
                lastDigit = c;
                chars++;
            }
        }
        inLong += (letterRun >= longRun ? letterRun : 0) + (digitRun >= longRun ? digitRun : 0);
        return new int[] {chars, runs, inLong};
    }

    /** The longest unit whose repetition makes a key body a placeholder ({@code FakeFakeFake…}). */
    private static final int MAX_REPEATED_UNIT = 8;

    /**
     * Whether a key body {@code a[from, to)} is one short unit of up to eight characters written over and over
     * ({@code FakeFakeFake…}, {@code ab12ab12…}), at least three times; a random body never is.
     */
    static boolean repeats(char[] a, int from, int to) {
        for (int unit = 1; unit <= MAX_REPEATED_UNIT && 3 * unit <= to - from; unit++) {
            int i = from + unit;
            while (i < to && a[i] == a[i - unit]) {
                i++;
            }
            if (i == to) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the text right after a key, {@code a[end, to)}, shows that the key is cut short for display:
     * {@code …}, {@code ..}, {@code *}, {@code #} or {@code •}.
     */
    static boolean isTruncatedAt(char[] a, int end, int to) {
        if (end >= to) {
            return false;
        }
        char c = a[end];
        return c == '\u2026' || c == '*' || c == '#' || c == '\u2022' || c == '.' && end + 1 < to && a[end + 1] == '.';
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
            if (indexOf(folded, n, word, 0) >= 0) {
                return true;
            }
        }
        // "YOUR_GROQ_KEY", "your-org-token": "your", then what it stands for
        int your = indexOf(folded, n, "your", 0);
        if (your >= 0) {
            for (String noun : YOUR_WHAT) {
                if (indexOf(folded, n, noun, your + 4) >= 0) {
                    return true;
                }
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

    /** {@code ...} or {@code …}: a key shown with its middle left out; or {@code ..} at its end, cut short. */
    private static boolean hasEllipsis(char[] a, int from, int to) {
        if (to - from >= 2 && a[to - 1] == '.' && a[to - 2] == '.') {
            return true;
        }
        for (int i = from; i < to; i++) {
            if (a[i] == '\u2026' || a[i] == '.' && i + 2 < to && a[i + 1] == '.' && a[i + 2] == '.') {
                return true;
            }
        }
        return false;
    }

    private static int indexOf(char[] a, int n, String word, int from) {
        int last = n - word.length();
        for (int i = from; i <= last; i++) {
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
