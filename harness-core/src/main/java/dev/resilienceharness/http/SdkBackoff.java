package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * An SDK's own retry backoff, exponential with a random jitter drawn where no one can inject it: an adapter's
 * sleeper waits the nominal value instead of the jittered one, so that the SDK's waits, and a loop that times its
 * calls, come out the same in every run. A wait the server stated ({@code Retry-After}) is never changed.
 *
 * @param first  the nominal wait before the first retry
 * @param max    the longest nominal wait
 * @param jitter the largest fraction the SDK takes off the nominal wait at random
 */
@API(status = INTERNAL, since = "0.1.0")
public record SdkBackoff(Duration first, Duration max, double jitter) {

    /**
     * openai-java and anthropic-java (their {@code RetryingHttpClient}): {@code min(0.5 s * 2^(retry - 1), 8 s)},
     * times {@code 1 - 0.25 * ThreadLocalRandom.nextDouble()}.
     */
    public static final SdkBackoff STAINLESS = new SdkBackoff(Duration.ofMillis(500), Duration.ofSeconds(8), 0.25);

    public SdkBackoff {
        if (first.isNegative() || first.isZero() || max.compareTo(first) < 0 || jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("not a backoff: first " + first + ", max " + max + ", jitter "
                    + jitter);
        }
    }

    /** The wait before retry {@code retry} (1 for the first) without jitter. */
    public Duration nominal(int retry) {
        int doublings = Math.max(0, Math.min(retry - 1, 62));
        double nanos = first.toNanos() * Math.pow(2, doublings);
        return nanos >= max.toNanos() ? max : Duration.ofNanos((long) nanos);
    }

    /**
     * The wait to take when the SDK asks for {@code asked} before retry {@code retry}: the nominal value when
     * {@code asked} is that value less some jitter, else {@code asked} unchanged (a formula this one does not
     * describe, such as another version's, is waited as asked).
     */
    public Duration reproducible(int retry, Duration asked) {
        Duration nominal = nominal(retry);
        long lowest = (long) Math.floor(nominal.toNanos() * (1 - jitter));
        return asked.toNanos() >= lowest && asked.compareTo(nominal) <= 0 ? nominal : asked;
    }
}
