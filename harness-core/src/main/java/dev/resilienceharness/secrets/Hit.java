package dev.resilienceharness.secrets;

/**
 * A secret found inside one string, before it becomes a {@link Finding}.
 *
 * @param rule   the rule that matched
 * @param secret the secret as decoded (escapes, percent-encoding, base64 of Basic credentials undone)
 * @param start  where the secret's encoded form starts in the string (inclusive)
 * @param end    where it ends (exclusive); replacing {@code [start, end)} removes the secret
 */
record Hit(Rule rule, String secret, int start, int end) {

    boolean overlaps(int otherStart, int otherEnd) {
        return start < otherEnd && otherStart < end;
    }
}
