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
         * A pair whose name is {@code a[nameStart, nameEnd)} and whose separator ({@code =} or {@code :}) is at
         * {@code separator}; the name may be followed by a closing quote before the separator.
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
                    if (runEnd == i || runEnd == i - 1 && runEnd >= from && (a[runEnd] == '"' || a[runEnd] == '\'')) {
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
     * Checks the run {@code a[start, end)} of the text {@code a[from, to)}; returns where scanning resumes (past
     * a longer match) or {@code end}.
     */
    private static int classify(char[] a, int from, int start, int end, int to, Sink sink) {
        char first = a[start];
        switch (first) {
            case 'e' -> {
                int jwtEnd = JsonWebTokens.end(a, start, end, to);
                if (jwtEnd > 0) {
                    if (!StandIns.isStandIn(a, start, jwtEnd)) {
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
            case 's', 'r', 'A', 'h', 'g', 'x' -> {
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
