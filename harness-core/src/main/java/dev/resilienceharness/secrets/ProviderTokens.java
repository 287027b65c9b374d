package dev.resilienceharness.secrets;

/**
 * Provider API keys recognised by their prefix: OpenAI, Anthropic, Google, Hugging Face, Groq, AWS, GitHub,
 * Slack and Stripe. The caller hands over one maximal run of {@linkplain Chars#isToken token characters}, so a
 * key is never matched inside a longer word ({@code desk-...}) and the run is read once, left to right. A run
 * of the right shape is still no key when it is a {@linkplain StandIns stand-in} (a documented example, a
 * placeholder, a body that counts through the alphabet or reads as words) or is cut short for display.
 */
final class ProviderTokens {

    /** Prefixes that come before a key's random part, longest first where one starts another. */
    private static final String[] PREFIXES = {"sk-service-account-", "sk-svcacct-", "sk-admin-", "sk-proj-",
        "sk-ant-", "sk-", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "github_pat_", "gsk_", "hf_"};

    private ProviderTokens() {
    }

    /** The rule whose key shape the run {@code a[start, end)} has, or {@code null}. */
    static Rule match(char[] a, int start, int end) {
        return match(a, start, start, end, end);
    }

    /**
     * The rule whose key shape the run {@code a[start, end)} of the text {@code a[from, to)} has, or
     * {@code null}; the characters around the run decide whether it stands alone and whether it is shown whole.
     */
    static Rule match(char[] a, int from, int start, int end, int to) {
        Rule rule = shape(a, start, end);
        if (rule == null || !standsAlone(a, from, start, end, to) || StandIns.isTruncatedAt(a, end, to)) {
            return null;
        }
        int body = bodyStart(a, start, end);
        if (StandIns.isStandIn(a, start, end) || StandIns.isCounting(a, body, end) || StandIns.repeats(a, body, end)
                || HighEntropy.isWordLike(new String(a, body, end - body))) {
            return null;
        }
        return rule;
    }

    /**
     * Whether the run has a word boundary on both sides: no letter or digit of any script touches it (ASCII ones
     * already belong to the run, so this only looks at the rest of Unicode).
     */
    private static boolean standsAlone(char[] a, int from, int start, int end, int to) {
        return (start == from || !Character.isLetterOrDigit(a[start - 1]))
                && (end == to || !Character.isLetterOrDigit(a[end]));
    }

    /**
     * Where a GitHub App installation token of the form {@code ghs_<app id>_<JWT>} ends, when the run
     * {@code a[start, runEnd)} starts one (the run stops at the JWT's first dot), or -1.
     */
    static int installationTokenEnd(char[] a, int start, int runEnd, int to) {
        if (!startsWith(a, start, runEnd, "ghs_")) {
            return -1;
        }
        int i = start + 4;
        while (i < runEnd && Chars.isDigit(a[i])) {
            i++;
        }
        if (i == start + 4 || i >= runEnd || a[i] != '_') {
            return -1;
        }
        int jwtEnd = JsonWebTokens.end(a, i + 1, runEnd, to);
        if (jwtEnd < 0 || StandIns.isStandIn(a, i + 1, jwtEnd)) {
            return -1;
        }
        return jwtEnd;
    }

    /** Where the random part of a matched key starts: after its prefix. */
    private static int bodyStart(char[] a, int start, int end) {
        for (String prefix : PREFIXES) {
            if (startsWith(a, start, end, prefix)) {
                return start + prefix.length();
            }
        }
        // AIza, AKIA and the like, gh?_, xox?-: four or five characters
        return start + (a[start + 3] == '_' ? 4 : a[start] == 'x' ? 5 : 4);
    }

    private static Rule shape(char[] a, int start, int end) {
        int len = end - start;
        if (len < 15) {
            // the shortest key shape is a Slack token: xoxb- and ten characters
            return null;
        }
        return switch (a[start]) {
            case 's' -> sk(a, start, end);
            case 'r' -> stripe(a, start, end, "rk_");
            case 'A' -> capitalA(a, start, end);
            case 'h' -> startsWith(a, start, end, "hf_") && alnumBody(a, start + 3, end, 30)
                    ? Rule.HUGGINGFACE_TOKEN : null;
            case 'g' -> g(a, start, end);
            case 'x' -> slack(a, start, end);
            default -> null;
        };
    }

    private static Rule sk(char[] a, int start, int end) {
        if (startsWith(a, start, end, "sk-ant-")) {
            return keyBody(a, start + 7, end, 32) ? Rule.ANTHROPIC_KEY : null;
        }
        if (startsWith(a, start, end, "sk-")) {
            for (String project : new String[] {"proj-", "svcacct-", "admin-", "service-account-"}) {
                if (startsWith(a, start + 3, end, project)) {
                    return keyBody(a, start + 3 + project.length(), end, 20) ? Rule.OPENAI_KEY : null;
                }
            }
            return alnumBody(a, start + 3, end, 32) ? Rule.OPENAI_KEY : null;
        }
        return stripe(a, start, end, "sk_");
    }

    private static Rule stripe(char[] a, int start, int end, String kind) {
        if (startsWith(a, start, end, kind)
                && (startsWith(a, start + 3, end, "live_") || startsWith(a, start + 3, end, "test_"))) {
            return alnumBody(a, start + 8, end, 16) ? Rule.STRIPE_KEY : null;
        }
        return null;
    }

    private static Rule capitalA(char[] a, int start, int end) {
        int len = end - start;
        if (startsWith(a, start, end, "AIza")) {
            return len == 39 && Chars.classes(a, start + 4, end) >= 2 ? Rule.GOOGLE_API_KEY : null;
        }
        if (len == 20 && (startsWith(a, start, end, "AKIA") || startsWith(a, start, end, "ASIA")
                || startsWith(a, start, end, "ABIA") || startsWith(a, start, end, "ACCA"))) {
            for (int i = start + 4; i < end; i++) {
                if (!Chars.isUpper(a[i]) && !Chars.isDigit(a[i])) {
                    return null;
                }
            }
            return Rule.AWS_ACCESS_KEY_ID;
        }
        return null;
    }

    private static Rule g(char[] a, int start, int end) {
        if (startsWith(a, start, end, "gsk_")) {
            return alnumBody(a, start + 4, end, 40) ? Rule.GROQ_KEY : null;
        }
        if (startsWith(a, start, end, "github_pat_")) {
            return wordBody(a, start + 11, end, 22) ? Rule.GITHUB_TOKEN : null;
        }
        if (end - start > 4 && a[start + 1] == 'h' && a[start + 3] == '_' && "pousr".indexOf(a[start + 2]) >= 0) {
            return alnumBody(a, start + 4, end, 36) ? Rule.GITHUB_TOKEN : null;
        }
        return null;
    }

    private static Rule slack(char[] a, int start, int end) {
        if (startsWith(a, start, end, "xox") && "abposr".indexOf(a[start + 3]) >= 0 && a[start + 4] == '-') {
            int body = start + 5;
            if (end - body < 10) {
                return null;
            }
            if (a[start + 3] == 'b' || a[start + 3] == 'p') {
                return botOrUserToken(a, body, end) ? Rule.SLACK_TOKEN : null;
            }
            for (int i = body; i < end; i++) {
                if (Chars.isDigit(a[i])) {
                    return Rule.SLACK_TOKEN;
                }
            }
        }
        return null;
    }

    /**
     * A bot ({@code xoxb-}) or user ({@code xoxp-}) token's body: a workspace number of at least eight digits,
     * then at least 18 more characters, or two numbers of at least ten digits each ({@code xoxb-12345-abc} is too
     * short to be real).
     */
    private static boolean botOrUserToken(char[] a, int body, int end) {
        int i = body;
        while (i < end && Chars.isDigit(a[i])) {
            i++;
        }
        if (i - body < 8 || i >= end || a[i] != '-') {
            return false;
        }
        int second = i + 1;
        int k = second;
        while (k < end && Chars.isDigit(a[k])) {
            k++;
        }
        // the short two-part shape: two numbers of ten or more digits ({@code xoxb-<team>-<bot>})
        return end - second >= 18 || i - body >= 10 && k - second >= 10;
    }

    private static boolean startsWith(char[] a, int start, int end, String prefix) {
        return Chars.startsWith(a, start, end, prefix);
    }

    /** At least {@code min} letters and digits, nothing else, mixing at least two of lower, upper and digit. */
    private static boolean alnumBody(char[] a, int from, int end, int min) {
        return end - from >= min && Chars.allAlnum(a, from, end) && Chars.classes(a, from, end) >= 2;
    }

    /** At least {@code min} letters, digits and underscores, mixing at least two character classes. */
    private static boolean wordBody(char[] a, int from, int end, int min) {
        if (end - from < min) {
            return false;
        }
        for (int i = from; i < end; i++) {
            if (a[i] == '-') {
                return false;
            }
        }
        return Chars.classes(a, from, end) >= 2;
    }

    /** At least {@code min} token characters with a digit and a letter: a random body, not hyphenated words. */
    private static boolean keyBody(char[] a, int from, int end, int min) {
        if (end - from < min) {
            return false;
        }
        boolean digit = false;
        boolean letter = false;
        for (int i = from; i < end; i++) {
            digit |= Chars.isDigit(a[i]);
            letter |= Chars.isLetter(a[i]);
        }
        return digit && letter;
    }
}
