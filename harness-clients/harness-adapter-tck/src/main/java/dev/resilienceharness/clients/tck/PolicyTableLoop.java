package dev.resilienceharness.clients.tck;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.policy.Policy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A team's loop for the policy-table tests, whatever the SDK: one call per step in the step's scope, journaled, so
 * that a crash resumes without repeating a done step, and the concurrency a slow first token halved carried to the
 * next steps. A subclass makes the step's call with its SDK's client and applies the policy's retries.
 *
 * @param <C> the SDK's client, one per run
 */
public abstract class PolicyTableLoop<C> implements AgentLoop {

    private final Function<LoopRun, C> clients;

    protected PolicyTableLoop(Function<LoopRun, C> clients) {
        this.clients = clients;
    }

    /** One step, with its retries, at the concurrency the earlier steps left. */
    protected abstract Outcome step(LoopRun run, C client, String op, int concurrency);

    @Override
    public final List<Outcome> run(LoopRun run) {
        C client = clients.apply(run);
        List<Outcome> outcomes = new ArrayList<>(run.journal().completed());
        Set<String> done = new HashSet<>();
        int concurrency = run.policy().concurrency();
        for (Outcome o : outcomes) {
            done.add(o.op());
            concurrency = o.concurrency() != null ? o.concurrency() : concurrency;
        }
        for (String op : run.ops()) {
            if (done.contains(op)) {
                continue;
            }
            Outcome outcome;
            try (var scope = run.op(op)) {
                outcome = step(run, client, op, concurrency);
            }
            concurrency = outcome.concurrency() != null ? outcome.concurrency() : concurrency;
            run.journal().record(outcome);
            outcomes.add(outcome);
        }
        return outcomes;
    }

    /**
     * The policy's slow-token rule on an answer that started at {@code start}: past the threshold it is slow, at half
     * the concurrency (at least one).
     */
    protected static Outcome slowTokenRule(LoopRun run, Instant start, Outcome ok, int concurrency) {
        Policy policy = run.policy();
        long elapsed = Duration.between(start, run.now()).toMillis();
        return elapsed > policy.slowFirstToken().threshold().toMillis()
                ? ok.slow(elapsed, Math.max(1, concurrency / 2)) : ok;
    }
}
