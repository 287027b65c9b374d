package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A {@code provider_limits:} block: the windows, quota and concurrency a rate-limited endpoint enforces on the
 * virtual clock. Every key may be absent ({@code null}); a scenario's block changes single keys of the top-level one.
 *
 * @param requestsPerMinute calls admitted in any 60 s of virtual time, or {@code null}
 * @param tokensPerMinute   tokens of answered calls admitted in any 60 s of virtual time, or {@code null}
 * @param tokenQuota        tokens the whole run may spend, or {@code null}
 * @param maxConcurrency    calls in flight at one virtual instant, or {@code null}
 * @param pool              the endpoint the scenario shares with others: {@link #SHARED} for {@code shared: true},
 *                          a pool name, or {@code null} for an endpoint of its own
 */
@API(status = INTERNAL, since = "0.1.0")
public record ProviderLimits(Integer requestsPerMinute, Integer tokensPerMinute, Long tokenQuota,
        Integer maxConcurrency, String pool) {

    /** The pool {@code shared: true} names. */
    public static final String SHARED = "shared";

    /** No limits at all: every call is admitted. */
    public static final ProviderLimits NONE = new ProviderLimits(null, null, null, null, null);

    /** Whether no limit is set (a pool alone limits nothing). */
    public boolean limitsNothing() {
        return requestsPerMinute == null && tokensPerMinute == null && tokenQuota == null && maxConcurrency == null;
    }

    /** The pool a scenario's {@code shared: false} writes: an endpoint of its own, whatever the top level says. */
    static final String OWN = "";

    /**
     * These limits with every key left out here taken from {@code base}; a {@code shared: false} here leaves the
     * scenario an endpoint of its own.
     */
    public ProviderLimits over(ProviderLimits base) {
        Objects.requireNonNull(base, "base");
        String merged = pool != null ? pool : base.pool;
        return new ProviderLimits(
                requestsPerMinute != null ? requestsPerMinute : base.requestsPerMinute,
                tokensPerMinute != null ? tokensPerMinute : base.tokensPerMinute,
                tokenQuota != null ? tokenQuota : base.tokenQuota,
                maxConcurrency != null ? maxConcurrency : base.maxConcurrency,
                OWN.equals(merged) ? null : merged);
    }

    /** The same windows and quota in another pool ({@code null}: an endpoint of its own). */
    public ProviderLimits inPool(String newPool) {
        return new ProviderLimits(requestsPerMinute, tokensPerMinute, tokenQuota, maxConcurrency, newPool);
    }

    /** These limits with {@code requests_per_minute} replaced (the explorer searches it). */
    public ProviderLimits withRequestsPerMinute(Integer value) {
        return new ProviderLimits(value, tokensPerMinute, tokenQuota, maxConcurrency, pool);
    }

    /** These limits with {@code token_quota} replaced (the explorer searches it). */
    public ProviderLimits withTokenQuota(Long value) {
        return new ProviderLimits(requestsPerMinute, tokensPerMinute, value, maxConcurrency, pool);
    }
}
