package dev.resilienceharness.brokenloops;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.testing.ScenarioRuns;
import java.util.List;

/**
 * Retries every failure at once, up to ten calls per op, whatever the policy says: a retry storm. A class of its own,
 * so that a yaml can name it as its {@code loop:}; the loop itself is {@link ScenarioRuns#retryUntilAnswered}.
 */
public final class RetryStormLoop implements AgentLoop {

    private final AgentLoop loop = ScenarioRuns.retryUntilAnswered(10);

    @Override
    public List<Outcome> run(LoopRun run) {
        return loop.run(run);
    }
}
