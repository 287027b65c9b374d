package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * The one timeout rule of every adapter and of the run that answers it: how long an SDK's HTTP attempt waits, when an
 * answer counts as too late for it, and what a timeout costs on the run's virtual clock.
 *
 * <p>An SDK's HTTP client gives up on whichever of its read and whole-request timeouts runs out first, as OkHttp and
 * the JDK's client do; a zero timeout is none, as it is to them. A timeout fault moves the virtual clock on by that
 * timeout, or by {@link #UNSTATED} when the SDK states none, and does not count as waiting.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class AttemptTimeout {

    /** What a timeout costs on the virtual clock when the SDK does not say how long it waits. */
    public static final Duration UNSTATED = Duration.ofSeconds(60);

    private AttemptTimeout() {
    }

    /**
     * How long an attempt waits for its answer: the shorter of {@code read} and {@code request}, a {@code null} or zero
     * one meaning none.
     *
     * @return the timeout, or {@code null} when neither is set
     */
    public static Duration of(Duration read, Duration request) {
        Duration r = stated(read);
        Duration whole = stated(request);
        if (r == null) {
            return whole;
        }
        if (whole == null) {
            return r;
        }
        return r.compareTo(whole) <= 0 ? r : whole;
    }

    /** What a timeout fault costs on the virtual clock: {@code timeout}, or {@link #UNSTATED} when there is none. */
    public static Duration onClock(Duration timeout) {
        Duration stated = stated(timeout);
        return stated != null ? stated : UNSTATED;
    }

    /**
     * Whether something that comes {@code after} the request (a first byte, the next event of a stream) comes too late
     * for {@code timeout}: only a stated timeout runs out, and only when {@code after} is longer than it.
     */
    public static boolean runsOut(Duration timeout, Duration after) {
        Duration stated = stated(timeout);
        return stated != null && after.compareTo(stated) > 0;
    }

    private static Duration stated(Duration timeout) {
        return timeout == null || timeout.isZero() || timeout.isNegative() ? null : timeout;
    }
}
