package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;

/**
 * One time limit shared out over several searches: each gets an even share of what is left when it starts, so that a
 * search that ends early leaves its time to the ones after it, and one that overran takes it from them.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class TimeShare {

    private final Duration limit;
    private final LongSupplier nanoTime;
    private final long start;
    private int left;

    /** {@code limit} shared over {@code searches}, from now as {@code nanoTime} tells it. */
    public TimeShare(Duration limit, int searches, LongSupplier nanoTime) {
        this.limit = limit;
        this.nanoTime = nanoTime;
        this.start = nanoTime.getAsLong();
        this.left = searches;
    }

    /** The next search's share: what is left of the limit over the searches left, or zero once it is spent. */
    public Duration next() {
        if (left <= 0) {
            throw new IllegalStateException("every search has had its share");
        }
        Duration remaining = limit.minusNanos(nanoTime.getAsLong() - start);
        Duration share = remaining.isNegative() ? Duration.ZERO : remaining.dividedBy(left);
        left--;
        return share;
    }
}
