package dev.resilienceharness.scenario;

import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.limits.Limiter;
import dev.resilienceharness.trace.RunTrace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.random.RandomGenerator;

/**
 * Runs the scenarios of one pool ({@code provider_limits.shared}) together against one limiter: each on a thread of
 * its own with its own clock, loop and transport, their calls handed to the endpoint in order of virtual time by
 * {@link TurnTaking}. Each scenario's trace is its own, checked on its own.
 */
final class SharedEndpoint {

    /** How long a pool's runs may take in real time before the rehearsal gives up on them. */
    static final long MAX_MINUTES = 30;

    /** Runs one member of the pool: scenario, its volatile random, the shared limiter and its turns. */
    interface Member {
        RunTrace run(Scenario scenario, RandomGenerator volatileRandom, Limiter limiter, EndpointTurns turns);
    }

    private SharedEndpoint() {
    }

    /**
     * Runs {@code members} together once.
     *
     * @param randoms the volatile random of each member by index ({@code null} values allowed)
     * @return each member's trace, by scenario name, in the order given
     */
    static Map<String, RunTrace> run(List<Scenario> members, IntFunction<RandomGenerator> randoms, Member member) {
        Limiter limiter = new Limiter(members.get(0).limits());
        TurnTaking turns = new TurnTaking(members.size());
        RunTrace[] traces = new RunTrace[members.size()];
        Throwable[] failures = new Throwable[members.size()];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            int who = i;
            Thread t = new Thread(() -> {
                try {
                    traces[who] = member.run(members.get(who), randoms.apply(who), limiter, turns.of(who));
                } catch (Throwable e) {
                    failures[who] = e;
                } finally {
                    turns.done(who);
                }
            }, "resilience-shared-" + members.get(i).name());
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(MAX_MINUTES);
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the scenarios of a shared endpoint ran", e);
            }
            if (t.isAlive()) {
                throw new IllegalStateException("the scenarios sharing endpoint '" + members.get(0).limits().pool()
                        + "' did not finish in " + MAX_MINUTES + " minutes");
            }
        }
        Map<String, RunTrace> byName = new LinkedHashMap<>();
        for (int i = 0; i < members.size(); i++) {
            if (failures[i] instanceof RuntimeException e) {
                throw e;
            }
            if (failures[i] instanceof Error e) {
                throw e;
            }
            byName.put(members.get(i).name(), traces[i]);
        }
        return byName;
    }
}
