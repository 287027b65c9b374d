package dev.resilienceharness.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class IndicesTest {

    @Test
    void runsEveryIndexOnceWhateverTheSize() {
        for (int n : new int[] {0, 1, Indices.GRAIN - 1, Indices.GRAIN, Indices.GRAIN + 1, 16, 40, 1_000, 10_007}) {
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            Indices.forEach(n, runs::incrementAndGet);
            for (int i = 0; i < n; i++) {
                assertEquals(1, runs.get(i), "index " + i + " of " + n);
            }
        }
    }

    @Test
    void whatTheBodyThrowsIsThrownOnceTheOtherIndicesHaveRun() {
        AtomicIntegerArray runs = new AtomicIntegerArray(2_000);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Indices.forEach(2_000, i -> {
            runs.incrementAndGet(i);
            if (i == 1_234) {
                throw new IllegalStateException("index 1234 is broken");
            }
        }));
        Throwable original = thrown;
        while (original.getCause() != null) {
            original = original.getCause();
        }
        assertEquals("index 1234 is broken", original.getMessage());
        // Whichever thread threw it, it comes as itself, not as a copy whose cause is the original.
        assertEquals("index 1234 is broken", thrown.getMessage());
        assertNull(thrown.getCause());
        // Leaves other than the failing one are not cancelled: a pass that hits one bad file still reads the rest.
        int ran = 0;
        for (int i = 0; i < 2_000; i++) {
            ran += runs.get(i);
        }
        assertTrue(ran >= 2_000 - (Indices.GRAIN - 1) && ran <= 2_000, ran + " indices ran");
    }

    @Test
    void anErrorInSeveralLeavesIsThrownAsItselfWithTheOthersSuppressed() {
        // The pool would record an Error in objects it allocates, which a full heap refuses, and its worker would die
        // with the leaf never done: the leaves keep it aside instead, so that it reaches the caller as it was thrown.
        OutOfMemoryError[] thrown = new OutOfMemoryError[4];
        for (int k = 0; k < thrown.length; k++) {
            thrown[k] = new OutOfMemoryError("leaf " + k);
        }
        OutOfMemoryError caught = assertThrows(OutOfMemoryError.class, () -> Indices.forEach(4_000, i -> {
            if (i % 1_000 == 500) {
                throw thrown[i / 1_000];
            }
        }));
        List<Throwable> all = new ArrayList<>(List.of(caught.getSuppressed()));
        all.add(caught);
        assertEquals(thrown.length, all.size());
        assertEquals(Set.of(thrown), Set.copyOf(all));
    }

    /**
     * The calling thread is not one of the pool's, as a program's {@code main} is not. A pool worker that is slow (here
     * 2 ms an index, the caller 20 µs) does not hold the caller up with half of the work: it holds a chunk at a time,
     * and the caller takes the rest.
     */
    @Test
    void aSlowWorkerHoldsOneChunkAtATimeAndTheCallerTakesTheRest() {
        int n = 2_000;
        Thread caller = Thread.currentThread();
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicInteger elsewhere = new AtomicInteger();
        Indices.forEach(n, i -> {
            runs.incrementAndGet(i);
            if (Thread.currentThread() == caller) {
                long until = System.nanoTime() + 20_000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            } else {
                elsewhere.incrementAndGet();
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        for (int i = 0; i < n; i++) {
            assertEquals(1, runs.get(i), "index " + i);
        }
        // Halves forked down to leaves gave the worker the first half it took, 1,000 indices, and the caller waited.
        assertTrue(elsewhere.get() < n / 4, elsewhere.get() + " of " + n + " indices ran off the calling thread");
    }

    @Test
    void nestedCallsRunEveryIndexOnce() {
        // Nested: the outer body runs on the caller and the pool's workers, and each calls forEach again.
        int outer = 64;
        int inner = 100;
        AtomicIntegerArray runs = new AtomicIntegerArray(outer * inner);
        Indices.forEach(outer, o -> Indices.forEach(inner, i -> runs.incrementAndGet(o * inner + i)));
        for (int k = 0; k < outer * inner; k++) {
            assertEquals(1, runs.get(k), "index " + k);
        }
    }

    @Test
    void aNegativeCountIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Indices.forEach(-1, i -> { }));
    }
}
