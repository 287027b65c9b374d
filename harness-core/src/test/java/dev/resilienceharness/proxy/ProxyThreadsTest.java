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
}
