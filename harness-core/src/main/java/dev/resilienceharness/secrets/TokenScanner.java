package dev.resilienceharness.secrets;

/**
 * One left-to-right pass over a decoded string that finds every token-shaped secret (provider keys, JWTs, PEM
 * private keys, e-mail addresses, card numbers) and reports the places the layers above care about
 * ({@code Basic} credentials, {@code name=value} and {@code name: value} pairs, percent escapes).
 *
 * <p><b>Why it is linear.</b> The text is cut into maximal runs of {@linkplain Chars#isToken token characters}
 * ({@code [A-Za-z0-9_-]}). A run is looked at only once it ends, and only when it has four or more characters
 * (every shape starts with such a run); then a {@code switch} on its first character is the keyword prefilter,
 * and most runs (words, numbers, ids) leave it at once. A run that
 * passes is checked by a hand-written shape test that reads the run once ({@link ProviderTokens}) or reads a
 * bounded distance beyond it ({@link CardNumbers}: 23 characters, {@link BasicCredentials}: its token); the
 * detectors that read further ({@link JsonWebTokens}, {@link PemBlocks}) return where the match ends and the pass
 * resumes there, so those characters are not read again. Each {@code @} costs at most 64 characters back and 253
 * forward ({@link EmailAddresses}). No regular expression runs here, so there is nothing to backtrack: the work is
 * proportional to the length of the text, with a small constant.
 */
final class TokenScanner {

    /** A percent escape such as {@code %2D} occurs in the text. */
    static final int PERCENT = 1;

    /** Receives what the pass finds; offsets index the scanned array. */
    interface Sink {

        /** A secret of {@code rule} at {@code a[start, end)}. */
        void secret(Rule rule, int start, int end);

        /** {@code Basic} credentials whose base64 token is {@code a[start, end)}. */
        default void basic(int start, int end) {
        }

        /**
         * A pair whose name is {@code a[nameStart, nameEnd)} and whose separator is at {@code separator}:
         * {@code =} or {@code :} (the name may be followed by a closing quote and two spaces before it, so
         * {@code KEY = value}, {@code key := value}, {@code :key => value} count), the {@code >} closing an
         * element's start tag, or the {@code ,} after a call's quoted first argument.
         */
        default void pair(int nameStart, int nameEnd, int separator) {
        }
    }

    private TokenScanner() {
    }

    /**
     * Scans {@code a[from, to)} and returns flags ({@link #PERCENT}).
     */
    static int scan(char[] a, int from, int to, Sink sink) {
        int flags = 0;
        int runStart = -1;
        int runEnd = -1;
        int i = from;
        while (i < to) {
            char c = a[i];
            if (Chars.isToken(c)) {
                int start = i++;
                while (i < to && Chars.isToken(a[i])) {
                    i++;
                }
                // every shape starts with a run of four or more (a card group, "Basic", a key prefix)
                int resume = i - start >= 4 ? classify(a, from, start, i, to, sink) : i;
                if (resume > i) {
                    i = resume;
                    runStart = -1;
                    runEnd = -1;
                } else {
                    runStart = start;
                    runEnd = i;
                }
                continue;
            }
            switch (c) {
                case '%' -> {
                    if (PercentDecoding.escapedByte(a, i, to) >= 0) {
                        flags |= PERCENT;
                    }
                }
                case '=', ':' -> {
                    if (runEnd >= from && nameEndsBefore(a, from, runEnd, i)) {
                        sink.pair(runStart, runEnd, i);
                    }
                }
                case '>' -> {
                    // <apiKey>value</apiKey>: the element's name is the pair's name
                    if (runEnd == i && runStart > from && a[runStart - 1] == '<') {
                        sink.pair(runStart, runEnd, i);
                    }
                }
                case ',' -> {
                    // setProperty("X_TOKEN", "value"): a quoted name as a call's first argument
                    if (runEnd == i - 1 && runStart >= from + 2 && isQuote(a[runEnd]) && a[runStart - 1] == a[runEnd]
                            && a[runStart - 2] == '(') {
                        sink.pair(runStart, runEnd, i);
                    }
                }
                case '@' -> {
                    long email = EmailAddresses.match(a, from, i, to);
                    if (email >= 0) {
                        sink.secret(Rule.EMAIL_ADDRESS, EmailAddresses.start(email), EmailAddresses.end(email));
                        i = EmailAddresses.end(email);
                        runStart = -1;
                        runEnd = -1;
                        continue;
                    }
                }
                default -> {
                }
            }
            i++;
        }
        return flags;
    }

    /**
     * Whether the name that ended at {@code runEnd} is followed only by what may stand between a name and its
     * assignment operator at {@code separator}: a closing quote, up to two spaces or tabs, and {@code ?} or
     * {@code +} glued to an {@code =} ({@code KEY ?= value}). Looks back a bounded distance.
     */
    private static boolean nameEndsBefore(char[] a, int from, int runEnd, int separator) {
        int i = separator;
        if (a[separator] == '=' && i - 1 >= from && (a[i - 1] == '?' || a[i - 1] == '+')) {
            i--;
        }
        for (int skip = 0; skip < 2 && i - 1 >= from && (a[i - 1] == ' ' || a[i - 1] == '\t'); skip++) {
            i--;
        }
        if (i - 1 >= from && i - 1 == runEnd && isQuote(a[i - 1])) {
            i--;
        }
        return i == runEnd;
    }

    private static boolean isQuote(char c) {
        return c == '"' || c == '\'';
    }

    /**
     * Checks the run {@code a[start, end)} of the text {@code a[from, to)}; returns where scanning resumes (past
     * a longer match) or {@code end}.
     */
    private static int classify(char[] a, int from, int start, int end, int to, Sink sink) {
        char first = a[start];
        switch (first) {
            case 'e' -> {
                int jwtEnd = JsonWebTokens.end(a, start, end, to);
                if (jwtEnd > 0) {
                    if (!StandIns.isStandIn(a, start, jwtEnd) && !JsonWebTokens.isSample(a, start, jwtEnd)) {
                        sink.secret(Rule.JWT, start, jwtEnd);
                    }
                    return jwtEnd;
                }
            }
            case '-' -> {
                int pemEnd = PemBlocks.end(a, start, end, to);
                if (pemEnd > 0) {
                    sink.secret(Rule.PRIVATE_KEY, start, pemEnd);
                    return pemEnd;
                }
            }
            case 'B', 'b' -> {
                if (BasicCredentials.isScheme(a, start, end)) {
                    int tokenEnd = BasicCredentials.tokenEnd(a, end, to);
                    if (tokenEnd > 0) {
                        sink.basic(end + 1, tokenEnd);
                        return tokenEnd;
                    }
                }
            }
            case 'g' -> {
                int installationEnd = ProviderTokens.installationTokenEnd(a, start, end, to);
                if (installationEnd > 0) {
                    sink.secret(Rule.GITHUB_TOKEN, start, installationEnd);
                    return installationEnd;
                }
                Rule rule = ProviderTokens.match(a, from, start, end, to);
                if (rule != null) {
                    sink.secret(rule, start, end);
                }
            }
            case 's', 'r', 'A', 'h', 'x' -> {
                Rule rule = ProviderTokens.match(a, from, start, end, to);
                if (rule != null) {
                    sink.secret(rule, start, end);
                }
            }
            default -> {
                if (Chars.isDigit(first)) {
                    int cardEnd = CardNumbers.end(a, start, end, to);
                    if (cardEnd > 0) {
                        sink.secret(Rule.CARD_NUMBER, start, cardEnd);
                        return cardEnd;
                    }
                }
            }
        }
        return end;
    }
}
