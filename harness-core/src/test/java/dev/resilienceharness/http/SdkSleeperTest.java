package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SdkSleeperTest {

    /** An endpoint that only waits: what it was asked to wait, and by whom; a negative wait is refused. */
    private static final class Waits implements HttpEndpoint {
        final List<String> waits = new ArrayList<>();
        Error crash;

        @Override
        public HttpAnswer exchange(HttpAttempt attempt) {
            throw new UnsupportedOperationException();
        }

        @Override
        public InputStream body(HttpAnswer.Response response, Duration readTimeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Clock clock() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sleep(Duration duration, String sdk) {
            if (crash != null) {
                throw crash;
            }
            if (duration.isNegative()) {
                throw new IllegalArgumentException("cannot sleep a negative duration: " + duration);
            }
            waits.add(duration.toMillis() + " ms by " + sdk);
        }

        @Override
        public Scope op(String op) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void blockingAndAsynchronousWaitsAreTheSameVirtualWaitMarkedAsTheSdks() {
        Waits endpoint = new Waits();
        SdkSleeper sleeper = new SdkSleeper(endpoint, () -> "some-sdk 1.0");
        sleeper.sleep(Duration.ofMillis(500));
        CompletableFuture<Void> done = sleeper.sleepAsync(Duration.ofSeconds(2));
        assertTrue(done.isDone() && !done.isCompletedExceptionally(), "the wait is over when sleepAsync returns");
        assertEquals(List.of("500 ms by some-sdk 1.0", "2000 ms by some-sdk 1.0"), endpoint.waits);
    }

    @Test
    void theSdkIsNamedAtEachWait() {
        Waits endpoint = new Waits();
        AtomicReference<String> sdk = new AtomicReference<>("openai-java");
        SdkSleeper sleeper = new SdkSleeper(endpoint, sdk::get);
        sleeper.sleep(Duration.ofMillis(1));
        sdk.set("openai-java 4.105.0");
        sleeper.sleepAsync(Duration.ofMillis(2));
        assertEquals(List.of("1 ms by openai-java", "2 ms by openai-java 4.105.0"), endpoint.waits);
    }

    @Test
    void aRefusedWaitThrowsFromSleepAndFailsTheFutureOfSleepAsync() {
        SdkSleeper sleeper = new SdkSleeper(new Waits(), () -> "sdk");
        assertThrows(IllegalArgumentException.class, () -> sleeper.sleep(Duration.ofMillis(-1)));
        CompletableFuture<Void> refused = sleeper.sleepAsync(Duration.ofMillis(-1));
        assertTrue(refused.isCompletedExceptionally());
        ExecutionException e = assertThrows(ExecutionException.class, refused::get);
        assertEquals(IllegalArgumentException.class, e.getCause().getClass());
    }

    @Test
    void theRunsCrashIsThrownFromBothNeverHeldInAFuture() {
        Waits endpoint = new Waits();
        endpoint.crash = new Error("process recycled");
        SdkSleeper sleeper = new SdkSleeper(endpoint, () -> "sdk");
        assertSame(endpoint.crash, assertThrows(Error.class, () -> sleeper.sleep(Duration.ofMillis(1))));
        assertSame(endpoint.crash, assertThrows(Error.class, () -> sleeper.sleepAsync(Duration.ofMillis(1))));
    }

    private static HttpAttempt attempt(int sdkRetry) {
        return new HttpAttempt("openai-java", "POST", "chat/completions", java.util.Map.of(), new byte[0], null,
                sdkRetry);
    }

    private static HttpAnswer.Response answer(int status, java.util.Map<String, List<String>> headers) {
        return new HttpAnswer.Response(0, status, headers, new byte[0], Duration.ZERO);
    }

    @Test
    void aJitteredBackoffAfterAnAnswerIsWaitedAtItsNominalValue() {
        Waits endpoint = new Waits();
        SdkSleeper sleeper = new SdkSleeper(endpoint, () -> "openai-java", SdkBackoff.STAINLESS);
        sleeper.answered(attempt(0), answer(503, java.util.Map.of()));
        sleeper.sleep(Duration.ofMillis(431));
        sleeper.answered(attempt(1), new HttpAnswer.TimedOut(Duration.ofSeconds(10)));
        sleeper.sleepAsync(Duration.ofMillis(877));
        assertEquals(List.of("500 ms by openai-java", "1000 ms by openai-java"), endpoint.waits);
    }

    @Test
    void aDelayTheAnswerStatedIsWaitedAsTheSdkAsks() {
        Waits endpoint = new Waits();
        SdkSleeper sleeper = new SdkSleeper(endpoint, () -> "openai-java", SdkBackoff.STAINLESS);
        sleeper.answered(attempt(0), answer(429, java.util.Map.of("Retry-After-Ms", List.of("450"))));
        sleeper.sleep(Duration.ofMillis(450));
        sleeper.answered(attempt(1), answer(429, java.util.Map.of("retry-after", List.of("30"))));
        sleeper.sleep(Duration.ofSeconds(8));
        assertEquals(List.of("450 ms by openai-java", "8000 ms by openai-java"), endpoint.waits);
    }

    @Test
    void withoutABackoffOrAnAnswerEveryWaitIsAsAsked() {
        Waits endpoint = new Waits();
        new SdkSleeper(endpoint, () -> "sdk").sleep(Duration.ofMillis(431));
        SdkSleeper knowing = new SdkSleeper(endpoint, () -> "sdk", SdkBackoff.STAINLESS);
        knowing.sleep(Duration.ofMillis(432));
        knowing.answered(attempt(0), answer(503, java.util.Map.of()));
        knowing.sleep(Duration.ofMillis(433));
        knowing.sleep(Duration.ofMillis(434));
        assertEquals(List.of("431 ms by sdk", "432 ms by sdk", "500 ms by sdk", "434 ms by sdk"), endpoint.waits,
                "an answer accounts for one wait only");
    }
}
