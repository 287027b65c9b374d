package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnTakingTest {

    /** Three runs, each taking turns at the given virtual times, the order the turns came in. */
    private static List<String> order(long[][] times) throws InterruptedException {
        TurnTaking turns = new TurnTaking(times.length);
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < times.length; i++) {
            int who = i;
            Thread t = new Thread(() -> {
                try {
                    for (long at : times[who]) {
                        turns.of(who).await(at);
                        seen.add(who + "@" + at);
                    }
                } finally {
                    turns.done(who);
                }
            });
            threads.add(t);
        }
        // Started in reverse: the order of the turns must not depend on which thread runs first.
        for (int i = threads.size() - 1; i >= 0; i--) {
            threads.get(i).start();
        }
        for (Thread t : threads) {
            t.join(10_000);
        }
        return seen;
    }

    @Test
    void turnsGoInOrderOfVirtualTimeTiesByIndex() throws InterruptedException {
        long[][] times = {{0, 60, 61}, {0, 30}, {5, 60}};
        List<String> expected = List.of("0@0", "1@0", "2@5", "1@30", "0@60", "2@60", "0@61");
        for (int round = 0; round < 20; round++) {
            assertEquals(expected, order(times));
        }
    }

    @Test
    void aRunThatEndsReleasesTheOthers() throws InterruptedException {
        assertEquals(List.of("1@3"), order(new long[][] {{}, {3}}));
    }
}
