package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ProxyThreadsTest {

    @Test
    void aReadThatOutlastsTheTimeoutIsInterrupted() throws Exception {
        try (ProxyThreads threads = new ProxyThreads(Duration.ofMillis(100))) {
            CountDownLatch ended = new CountDownLatch(1);
            AtomicBoolean interrupted = new AtomicBoolean();
            threads.execute(() -> {
                try {
                    Thread.sleep(10_000); // a read that never ends
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
                ended.countDown();
            });
            assertTrue(ended.await(5, TimeUnit.SECONDS));
            assertTrue(interrupted.get());
        }
    }

    @Test
    void aRequestReadInTimeMayTakeLongerToAnswer() throws Exception {
        try (ProxyThreads threads = new ProxyThreads(Duration.ofMillis(50))) {
            CountDownLatch ended = new CountDownLatch(1);
            AtomicBoolean interrupted = new AtomicBoolean();
            threads.execute(() -> {
                threads.requestRead();
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
                ended.countDown();
            });
            assertTrue(ended.await(5, TimeUnit.SECONDS));
            assertFalse(interrupted.get(), "the guard stood down once the request was read");
        }
    }

    @Test
    void closingLetsAWorkerFinishWhatItWasAnsweringBeforeItReturns() throws Exception {
        AtomicBoolean logged = new AtomicBoolean();
        CountDownLatch answering = new CountDownLatch(1);
        ProxyThreads threads = new ProxyThreads(Duration.ofSeconds(5));
        threads.execute(() -> {
            threads.requestRead();
            answering.countDown();
            try {
                Thread.sleep(200); // the answer is out; its log line comes after
            } catch (InterruptedException e) {
                return;
            }
            logged.set(true);
        });
        assertTrue(answering.await(5, TimeUnit.SECONDS));

        threads.close();

        assertTrue(logged.get(), "close returned before the worker had finished, or interrupted it");
    }

    @Test
    void delaysHoldNoThread() throws Exception {
        try (ProxyThreads threads = new ProxyThreads(Duration.ofSeconds(5))) {
            int n = ProxyThreads.MAX_WORKERS * 2;
            CountDownLatch done = new CountDownLatch(n);
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < n; i++) {
                threads.later(Duration.ofMillis(200), () -> {
                    ran.incrementAndGet();
                    done.countDown();
                });
            }
            assertTrue(done.await(10, TimeUnit.SECONDS), "more delayed answers than workers all go out");
            assertEquals(n, ran.get());
        }
    }

    @Test
    void aDelayWaitsWhereTheDelaysKeepItThenRunsOnAWorker() throws Exception {
        VirtualDelays delays = new VirtualDelays();
        try (ProxyThreads threads = new ProxyThreads(Duration.ofSeconds(5), delays)) {
            CountDownLatch ran = new CountDownLatch(1);
            java.util.concurrent.atomic.AtomicReference<String> on = new java.util.concurrent.atomic.AtomicReference<>();
            threads.later(Duration.ofMillis(750), () -> {
                on.set(Thread.currentThread().getName());
                ran.countDown();
            });
            assertEquals(750_000_000L, delays.awaitWaiting(1, Duration.ofSeconds(5)).get(0).dueNanos());
            assertEquals(java.util.List.of(), delays.advance(Duration.ofMillis(749)));
            assertEquals(1, ran.getCount(), "not run before its delay is over");
            assertEquals(1, delays.advance(Duration.ofMillis(1)).size());
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            assertTrue(on.get().startsWith("resilience-proxy-"), on.get());
        }
    }
}
