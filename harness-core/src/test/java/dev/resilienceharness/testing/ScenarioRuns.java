package dev.resilienceharness.testing;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.Reply;
import java.util.ArrayList;
import java.util.List;

/** Small helpers for tests that run scenarios through {@code Rehearsal} with loops written in the test. */
public final class ScenarioRuns {

    private ScenarioRuns() {
    }

    /** The scenario called {@code name}. */
    public static Scenario scenario(HarnessConfig config, String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * A loop that calls each op until it is answered, up to {@code maxCalls} times, ignoring the policy, waiting
     * for nothing and keeping no journal.
     */
    public static AgentLoop retryUntilAnswered(int maxCalls) {
        return run -> {
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                for (int attempt = 1; ; attempt++) {
                    try {
                        Reply reply = run.transport().call(run.request(op));
                        out.add(Outcome.ok(op, reply.body(), attempt));
                        break;
                    } catch (CallFailure e) {
                        if (attempt == maxCalls) {
                            out.add(Outcome.degraded(op, "timeout", attempt));
                            break;
                        }
                    }
                }
            }
            return out;
        };
    }
}
