package dev.resilienceharness.policy;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A loop's degradation policy (docs configuration.md, {@code policy:}): how often to retry, how long to wait, and
 * what to do on a quota rejection, a schema-broken tool call or a slow first token.
 *
 * @param maxAttempts    attempts per op for transient errors, the first included (at least 1)
 * @param baseDelay      wait after the n-th transient failure is {@code baseDelay * 2^(n-1)} ...
 * @param maxDelay       ... capped here
 * @param maxTotalWait   bound on all virtual waiting in one scenario run
 * @param quota          what to do on a quota rejection
 * @param schema         what to do on a tool call that breaks its schema
 * @param slowFirstToken when a first token counts as slow
 * @param concurrency    starting limit of ops in flight, halved (min 1) on each slow first token
 * @param jitter         how the loop randomises its transient backoff, which sets the shortest wait it may take
 * @param maxRounds      model rounds one op may take (at least 1): a call after an answered call of the op starts the
 *                       next round, as in a tool-calling turn; each round has the call budget an op has with 1
 */
@API(status = STABLE, since = "0.1.0")
public record Policy(
        int maxAttempts,
        Duration baseDelay,
        Duration maxDelay,
        Duration maxTotalWait,
        Quota quota,
        Schema schema,
        SlowFirstToken slowFirstToken,
        int concurrency,
        Jitter jitter,
        int maxRounds) {

    /** The defaults of every key but {@code max_total_wait}, which a config must always declare. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(10);
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(5);
    public static final Duration DEFAULT_MAX_RETRY_AFTER = Duration.ofSeconds(60);
    public static final int DEFAULT_REPAIR_ATTEMPTS = 1;
    public static final Duration DEFAULT_SLOW_THRESHOLD = Duration.ofSeconds(2);
    public static final int DEFAULT_CONCURRENCY = 4;
    public static final int DEFAULT_MAX_ROUNDS = 1;

    public Policy {
        Objects.requireNonNull(jitter, "jitter");
        Objects.requireNonNull(baseDelay, "baseDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(maxTotalWait, "maxTotalWait");
        Objects.requireNonNull(quota, "quota");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(slowFirstToken, "slowFirstToken");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max_attempts must be at least 1, was " + maxAttempts);
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, was " + concurrency);
        }
        if (maxRounds < 1) {
            throw new IllegalArgumentException("max_rounds must be at least 1, was " + maxRounds);
        }
    }

    /** A policy whose ops each take one model round ({@link #DEFAULT_MAX_ROUNDS}). */
    public Policy(int maxAttempts, Duration baseDelay, Duration maxDelay, Duration maxTotalWait, Quota quota,
            Schema schema, SlowFirstToken slowFirstToken, int concurrency, Jitter jitter) {
        this(maxAttempts, baseDelay, maxDelay, maxTotalWait, quota, schema, slowFirstToken, concurrency, jitter,
                DEFAULT_MAX_ROUNDS);
    }

    /** A policy without jitter ({@link Jitter#NONE}). */
    public Policy(int maxAttempts, Duration baseDelay, Duration maxDelay, Duration maxTotalWait, Quota quota,
            Schema schema, SlowFirstToken slowFirstToken, int concurrency) {
        this(maxAttempts, baseDelay, maxDelay, maxTotalWait, quota, schema, slowFirstToken, concurrency, Jitter.NONE);
    }

    /** A policy with every default and the given bound on total waiting. */
    public static Policy defaults(Duration maxTotalWait) {
        return new Policy(DEFAULT_MAX_ATTEMPTS, DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, maxTotalWait,
                new Quota(RetryAfterHandling.RETRY_ONCE, DEFAULT_MAX_RETRY_AFTER),
                new Schema(DEFAULT_REPAIR_ATTEMPTS),
                new SlowFirstToken(DEFAULT_SLOW_THRESHOLD),
                DEFAULT_CONCURRENCY);
    }

    /** The wait after the op's n-th transient failure (n from 1): {@code min(baseDelay * 2^(n-1), maxDelay)}. */
    public Duration backoff(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1, was " + n);
        }
        long base = baseDelay.toNanos();
        long cap = maxDelay.toNanos();
        // Doubling saturates at the cap long before it could overflow.
        long wait = base;
        for (int i = 1; i < n && wait < cap; i++) {
            wait = wait > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : wait * 2;
        }
        return Duration.ofNanos(Math.min(wait, cap));
    }

    /**
     * The shortest wait the policy allows after the op's n-th transient failure: {@link #backoff(int)} without
     * jitter, none at all with {@link Jitter#FULL}, half of it with {@link Jitter#EQUAL}.
     */
    public Duration minimumBackoff(int n) {
        return jitter.lowerBound(backoff(n));
    }

    /** Whether a quota rejection stating this delay may be waited for once under this policy. */
    public boolean mayHonour(Duration retryAfter) {
        return retryAfter != null
                && quota.withRetryAfter() == RetryAfterHandling.RETRY_ONCE
                && retryAfter.compareTo(quota.maxRetryAfter()) <= 0;
    }

    public Policy withMaxAttempts(int value) {
        return new Policy(value, baseDelay, maxDelay, maxTotalWait, quota, schema, slowFirstToken, concurrency,
                jitter, maxRounds);
    }

    public Policy withMaxTotalWait(Duration value) {
        return new Policy(maxAttempts, baseDelay, maxDelay, value, quota, schema, slowFirstToken, concurrency,
                jitter, maxRounds);
    }

    public Policy withQuota(Quota value) {
        return new Policy(maxAttempts, baseDelay, maxDelay, maxTotalWait, value, schema, slowFirstToken, concurrency,
                jitter, maxRounds);
    }

    public Policy withJitter(Jitter value) {
        return new Policy(maxAttempts, baseDelay, maxDelay, maxTotalWait, quota, schema, slowFirstToken, concurrency,
                value, maxRounds);
    }

    public Policy withSchema(Schema value) {
        return new Policy(maxAttempts, baseDelay, maxDelay, maxTotalWait, quota, value, slowFirstToken, concurrency,
                jitter, maxRounds);
    }

    public Policy withMaxRounds(int value) {
        return new Policy(maxAttempts, baseDelay, maxDelay, maxTotalWait, quota, schema, slowFirstToken, concurrency,
                jitter, value);
    }

    /**
     * What to do on a quota rejection.
     *
     * @param withRetryAfter what to do when the rejection states a delay
     * @param maxRetryAfter  a longer stated delay is not waited for: the run stops
     */
    public record Quota(RetryAfterHandling withRetryAfter, Duration maxRetryAfter) {
        public Quota {
            Objects.requireNonNull(withRetryAfter, "withRetryAfter");
            Objects.requireNonNull(maxRetryAfter, "maxRetryAfter");
        }
    }

    /**
     * What to do on a tool call that breaks its schema.
     *
     * @param repairAttempts    repair calls allowed for a schema-broken tool call; 0 degrades at once
     * @param repairInstruction the stricter instruction a repair call appends to the request's {@code messages} as
     *                          a user message, or {@code null} to send the request as it was
     */
    public record Schema(int repairAttempts, String repairInstruction) {
        public Schema {
            if (repairAttempts < 0) {
                throw new IllegalArgumentException("repair_attempts must not be negative, was " + repairAttempts);
            }
        }

        /** Repairs without an instruction of their own. */
        public Schema(int repairAttempts) {
            this(repairAttempts, null);
        }
    }

    /** @param threshold a first token later than this is slow */
    public record SlowFirstToken(Duration threshold) {
        public SlowFirstToken {
            Objects.requireNonNull(threshold, "threshold");
        }
    }
}
