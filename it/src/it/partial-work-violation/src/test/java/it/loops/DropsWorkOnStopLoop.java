package it.loops;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import java.util.ArrayList;
import java.util.List;

/** Returns an empty list when a quota stops the run: the work finished before the stop is lost. */
public final class DropsWorkOnStopLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> out = new ArrayList<>();
        for (String op : run.ops()) {
            try {
                out.add(Outcome.ok(op, run.transport().call(run.request(op)).body(), 1));
            } catch (QuotaExhausted e) {
                return List.of();
            } catch (CallFailure e) {
                out.add(Outcome.degraded(op, "timeout", 1));
            }
        }
        return out;
    }
}
