package dev.resilienceharness.limits;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** The error messages of the 429s the limits send, in one place so tests can assert them. */
@API(status = INTERNAL, since = "0.1.0")
public final class LimitMessages {

    private LimitMessages() {
    }

    static String requests(int rpm) {
        return "requests_per_minute (" + rpm + ")";
    }

    static String tokens(int tpm) {
        return "tokens_per_minute (" + tpm + ")";
    }

    static String concurrency(int max) {
        return "max_concurrency (" + max + ")";
    }

    static String rateLimited(String which, String retryAfter) {
        return "Rate limit reached: " + which + "; try again in " + retryAfter + "s";
    }

    static String quotaSpent(long spent, long quota) {
        return "You exceeded your current quota: " + spent + " of token_quota " + quota + " tokens spent";
    }
}
