package dev.resilienceharness.clients.langchain4j;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * Tells langchain4j's own retries from the loop's calls. langchain4j sends no retry header, so an attempt is the SDK's
 * retry when it repeats the previous attempt's body on the same thread, inside the same {@code chat} call (no
 * {@link CallBoundary} in between: the loop was not returned to) and with no harness wait in between.
 *
 * <p>The boundary comes from a {@link dev.langchain4j.model.chat.listener.ChatModelListener} the adapter's builder
 * installs ({@link CallBoundary}). A thread on which no call boundary was ever seen (the streaming model, which has
 * none and never retries) counts every attempt as the loop's (0): a loop that retries the same request at once would
 * otherwise be taken for the SDK.
 */
final class SdkRetries {

    /** What the previous attempt on one thread was. */
    private static final class Last {
        long call = -1;
        long seenCall = -1;
        byte[] body;
        Duration waited;
        int retry;
    }

    private final ThreadLocal<Last> last = ThreadLocal.withInitial(Last::new);
    private long calls;

    /** A new {@code chat} call begins on the calling thread. */
    void callStarted() {
        Last l = last.get();
        synchronized (this) {
            l.call = ++calls;
        }
    }

    /**
     * The SDK retry number of an attempt sending {@code body} on the calling thread.
     *
     * @param waited all harness waiting of the run so far
     * @return 0 for the first attempt of a {@code chat} call, n for the SDK's n-th retry of it
     */
    int attempt(byte[] body, Duration waited) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(waited, "waited");
        Last l = last.get();
        boolean retry = l.call >= 0 && l.call == l.seenCall && l.body != null && Arrays.equals(l.body, body)
                && waited.equals(l.waited);
        l.retry = retry ? l.retry + 1 : 0;
        l.seenCall = l.call;
        l.body = body.clone();
        l.waited = waited;
        return l.retry;
    }
}
