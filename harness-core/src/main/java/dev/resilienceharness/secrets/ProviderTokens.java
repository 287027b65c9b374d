package dev.resilienceharness.secrets;

/**
 * Provider API keys recognised by their prefix: OpenAI, Anthropic, Google, Hugging Face, Groq, AWS, GitHub,
 * Slack and Stripe. The caller hands over one maximal run of {@linkplain Chars#isToken token characters}, so a
 * key is never matched inside a longer word ({@code desk-...}) and the run is read once, left to right.
 */
final class ProviderTokens {

    private ProviderTokens() {
    }

    /** The rule whose key shape the run {@code a[start, end)} has, or {@code null}. */
    static Rule match(char[] a, int start, int end) {
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
            for (String project : new String[] {"proj-", "svcacct-", "admin-"}) {
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
            return len == 39 ? Rule.GOOGLE_API_KEY : null;
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
            for (int i = body; i < end; i++) {
                if (Chars.isDigit(a[i])) {
                    return Rule.SLACK_TOKEN;
                }
            }
        }
        return null;
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
