package it.loops;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import java.util.ArrayList;
import java.util.List;

/** A sound loop in every way but one: it keeps no journal, so after a restart it starts over from the top. */
public final class ForgetfulRestartLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> out = new ArrayList<>();
        for (String op : run.ops()) {
            try {
                out.add(Outcome.ok(op, run.transport().call(run.request(op)).body(), 1));
            } catch (CallFailure e) {
                out.add(Outcome.degraded(op, "timeout", 1));
            }
        }
        return out;
    }
}
