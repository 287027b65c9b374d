package it.loops;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Tags each value with the identity hash of a fresh object and the wall clock: outcomes that differ from
 * run to run although the responses do not.
 */
public final class HashOrderLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> out = new ArrayList<>();
        for (String op : run.ops()) {
            try {
                ObjectNode value = (ObjectNode) run.transport().call(run.request(op)).body().deepCopy();
                value.put("trace", System.identityHashCode(new Object()) + ":" + System.nanoTime());
                out.add(Outcome.ok(op, value, 1));
            } catch (CallFailure e) {
                out.add(Outcome.degraded(op, "timeout", 1));
            }
        }
        return out;
    }
}
