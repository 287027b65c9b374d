package it.loops;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.TransientError;
import java.util.ArrayList;
import java.util.List;

/** Backs off exponentially as the policy says, but never checks max_total_wait nor caps at max_delay. */
public final class UnboundedWaitLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> out = new ArrayList<>();
        for (String op : run.ops()) {
            int attempt = 0;
            while (true) {
                attempt++;
                try {
                    out.add(Outcome.ok(op, run.transport().call(run.request(op)).body(), attempt));
                    break;
                } catch (TransientError e) {
                    if (attempt >= run.policy().maxAttempts()) {
                        out.add(Outcome.degraded(op, "timeout", attempt));
                        break;
                    }
                    run.sleeper().sleep(run.policy().baseDelay().multipliedBy(1L << (attempt - 1)));
                } catch (CallFailure e) {
                    out.add(Outcome.degraded(op, "schema", attempt));
                    break;
                }
            }
        }
        return out;
    }
}
