package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SdkRetriesTest {

    private static final byte[] PLAN = "{\"messages\":[\"plan\"]}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] REVIEW = "{\"messages\":[\"review\"]}".getBytes(StandardCharsets.UTF_8);

    private final SdkRetries retries = new SdkRetries();

    @Test
    void theSameBodyAgainWithinOneChatCallIsTheSdksNextRetry() {
        retries.callStarted();
        assertEquals(0, retries.attempt(PLAN, Duration.ZERO));
        assertEquals(1, retries.attempt(PLAN, Duration.ZERO));
        assertEquals(2, retries.attempt(PLAN, Duration.ZERO));
    }

    @Test
    void theSameBodyInANewChatCallIsTheLoopsCall() {
        retries.callStarted();
        assertEquals(0, retries.attempt(PLAN, Duration.ZERO));
        retries.callStarted();
        assertEquals(0, retries.attempt(PLAN, Duration.ZERO));
        assertEquals(1, retries.attempt(PLAN, Duration.ZERO));
    }

    @Test
    void anotherBodyIsAnotherRequest() {
        retries.callStarted();
        assertEquals(0, retries.attempt(PLAN, Duration.ZERO));
        assertEquals(0, retries.attempt(REVIEW, Duration.ZERO));
        assertEquals(0, retries.attempt(PLAN, Duration.ZERO));
    }

    @Test
    void aHarnessWaitInBetweenMakesItTheLoopsCall() {
        retries.callStarted();
        assertEquals(0, retries.attempt(PLAN, Duration.ZERO));
        assertEquals(0, retries.attempt(PLAN, Duration.ofMillis(10)));
        assertEquals(1, retries.attempt(PLAN, Duration.ofMillis(10)));
    }

    @Test
    void withoutAnyCallBoundaryEveryAttemptCountsAsTheLoops() {
        assertEquals(0, retries.attempt(PLAN, Duration.ZERO));
        assertEquals(0, retries.attempt(PLAN, Duration.ZERO));
    }

    @Test
    void eachThreadHasItsOwnChatCall() throws Exception {
        retries.callStarted();
        assertEquals(0, retries.attempt(PLAN, Duration.ZERO));
        AtomicInteger other = new AtomicInteger(-1);
        Thread t = new Thread(() -> {
            retries.callStarted();
            other.set(retries.attempt(PLAN, Duration.ZERO));
        });
        t.start();
        t.join(10_000);
        assertEquals(0, other.get());
        // The other thread's call began no new call here: this thread's next attempt is still a retry.
        assertEquals(1, retries.attempt(PLAN, Duration.ZERO));
    }
}
