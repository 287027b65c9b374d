package dev.resilienceharness.proxy;

import java.time.Duration;

/**
 * Where the proxy keeps an answer whose delay is not over yet (a timeout's 504, a slow first token, the gap before a
 * stream's next event): on real timers when serving, on a virtual clock when a test wants to see the delays.
 */
interface AnswerDelays {

    /** Runs {@code task} once {@code delay} has passed, holding no thread meanwhile. */
    void after(Duration delay, Runnable task);
}
