package dev.resilienceharness.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RealSleepWatchTest {

    @Test
    void aLongSleepIsInterruptedAndReportedWithWhoSlept() {
        boolean interrupted = false;
        List<RealSleepWatch.RealSleep> found;
        try (RealSleepWatch watch = RealSleepWatch.ofCurrentThread()) {
            try {
                Thread.sleep(120_000);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            assertTrue(watch.tripped());
            found = watch.found();
        }
        assertTrue(interrupted, "the two-minute sleep was cut short");
        assertEquals(1, found.size());
        assertTrue(found.get(0).millis() >= RealSleepWatch.TOLERANCE.toMillis(), String.valueOf(found.get(0)));
        assertTrue(found.get(0).where().startsWith(
                "dev.resilienceharness.clock.RealSleepWatchTest.aLongSleepIsInterruptedAndReportedWithWhoSlept("
                + "RealSleepWatchTest.java:"), found.get(0).where());
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void aRunThatNeverSleepsHasNothingToReport() {
        try (RealSleepWatch watch = RealSleepWatch.ofCurrentThread()) {
            long sum = 0;
            for (int i = 0; i < 1_000; i++) {
                sum += i;
            }
            assertEquals(499_500, sum);
            assertFalse(watch.tripped());
            assertEquals(List.of(), watch.found());
        }
    }

    @Test
    void aWatchOfNoThreadFindsNothingAndLeavesTheThreadsInterruptAlone() {
        Thread.currentThread().interrupt();
        try (RealSleepWatch watch = RealSleepWatch.none()) {
            assertFalse(watch.tripped());
            assertEquals(List.of(), watch.found());
            assertNull(watch.stall());
        } finally {
            // Closing it must not clear an interrupt it did not cause.
            assertTrue(Thread.interrupted());
        }
    }

    @Test
    void onlyAStackInThreadSleepCountsAsSleeping() {
        StackTraceElement sleep = new StackTraceElement("java.lang.Thread", "sleep", "Thread.java", -2);
        StackTraceElement unit = new StackTraceElement("java.util.concurrent.TimeUnit", "sleep", "TimeUnit.java", 446);
        StackTraceElement retry = new StackTraceElement("dev.langchain4j.internal.RetryUtils$RetryPolicy", "sleep",
                "RetryUtils.java", 175);
        StackTraceElement park = new StackTraceElement("jdk.internal.misc.Unsafe", "park", "Unsafe.java", -2);
        assertEquals("dev.langchain4j.internal.RetryUtils$RetryPolicy.sleep(RetryUtils.java:175)",
                RealSleepWatch.sleeper(new StackTraceElement[] {sleep, unit, retry}));
        assertNull(RealSleepWatch.sleeper(new StackTraceElement[] {park, retry}), "waiting on a lock is not a sleep");
    }

    @Test
    void aStallIsPlacedAtTheJdkMethodTheCodeCalledAndTheCodeThatCalledIt() {
        StackTraceElement park = new StackTraceElement("jdk.internal.misc.Unsafe", "park", "Unsafe.java", -2);
        StackTraceElement support = new StackTraceElement("java.util.concurrent.locks.LockSupport", "park",
                "LockSupport.java", 211);
        StackTraceElement signaller = new StackTraceElement("java.util.concurrent.CompletableFuture$Signaller",
                "block", "CompletableFuture.java", 1864);
        StackTraceElement join = new StackTraceElement("java.util.concurrent.CompletableFuture", "join",
                "CompletableFuture.java", 2117);
        StackTraceElement loop = new StackTraceElement("com.example.AgentLoop", "run", "AgentLoop.java", 42);
        assertEquals("in java.util.concurrent.CompletableFuture.join, called from com.example.AgentLoop.run("
                + "AgentLoop.java:42)", RealSleepWatch.standing(new StackTraceElement[] {park, support, signaller,
                join, loop}));
        assertEquals("com.example.AgentLoop.run(AgentLoop.java:42)",
                RealSleepWatch.standing(new StackTraceElement[] {loop}), "a loop spinning in its own code");
        assertEquals("in jdk.internal.misc.Unsafe.park", RealSleepWatch.standing(new StackTraceElement[] {park}));
    }

    @Test
    void aThreadThatDoesNothingTheRunCountsStallsAndIsInterruptedOnce() {
        boolean interrupted = false;
        RealSleepWatch.Stall stall;
        try (RealSleepWatch watch = RealSleepWatch.ofCurrentThread(() -> 7, java.time.Duration.ofMillis(100))) {
            try {
                new java.util.concurrent.CompletableFuture<Void>().get();
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (java.util.concurrent.ExecutionException e) {
                throw new AssertionError(e);
            }
            stall = watch.stall();
            assertFalse(watch.tripped(), "a stall is not a real sleep");
        }
        assertTrue(interrupted);
        assertEquals(Thread.State.WAITING, stall.state());
        assertTrue(stall.millis() >= 100, String.valueOf(stall));
        assertTrue(stall.where().startsWith("in java.util.concurrent.CompletableFuture.get, called from"
                + " dev.resilienceharness.clock.RealSleepWatchTest."), stall.where());
        assertFalse(Thread.currentThread().isInterrupted(), "closing the watch clears the interrupt it caused");
    }

    @Test
    void withoutAMeasureOfActivityNothingStalls() {
        try (RealSleepWatch watch = RealSleepWatch.ofCurrentThread(null, java.time.Duration.ofMillis(1))) {
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
            assertNull(watch.stall());
        }
        try (RealSleepWatch watch = RealSleepWatch.ofCurrentThread(() -> 1, java.time.Duration.ZERO)) {
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
            assertNull(watch.stall());
        }
    }
}
