package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A scenario's {@code expect:} lists, each compared position by position with the outcome list; a list that
 * is not given is not checked. Elements may be {@code null} (e.g. {@code retry_after: [null]}).
 */
@API(status = INTERNAL, since = "0.1.0")
public record Expectations(List<String> status, List<Integer> attempts, List<String> reason,
        List<String> retryAfter, List<Long> elapsedMs, List<Integer> concurrency) {

    /** No expectations. */
    public static final Expectations NONE = new Expectations(null, null, null, null, null, null);

    public Expectations {
        status = copy(status);
        attempts = copy(attempts);
        reason = copy(reason);
        retryAfter = copy(retryAfter);
        elapsedMs = copy(elapsedMs);
        concurrency = copy(concurrency);
    }

    /** Expectations that leave {@code elapsed_ms} and {@code concurrency} unchecked. */
    public Expectations(List<String> status, List<Integer> attempts, List<String> reason, List<String> retryAfter) {
        this(status, attempts, reason, retryAfter, null, null);
    }

    private static <T> List<T> copy(List<T> list) {
        // List.copyOf rejects null elements, which expectations allow.
        return list == null ? null : Collections.unmodifiableList(new ArrayList<>(list));
    }

    public boolean isEmpty() {
        return status == null && attempts == null && reason == null && retryAfter == null && elapsedMs == null
                && concurrency == null;
    }
}
