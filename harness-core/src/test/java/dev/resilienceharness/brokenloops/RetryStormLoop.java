package dev.resilienceharness.brokenloops;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.Reply;
import java.util.ArrayList;
import java.util.List;

/** Retries every failure at once, up to ten calls per op, whatever the policy says: a retry storm. */
public final class RetryStormLoop implements AgentLoop {

    private final int attempts;

    /** Ten calls per op, then the op degrades. */
    public RetryStormLoop() {
        this(10);
    }

    /** {@code attempts} calls per op, then the op degrades. */
    public RetryStormLoop(int attempts) {
        this.attempts = attempts;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> out = new ArrayList<>();
        for (String op : run.ops()) {
            for (int attempt = 1; ; attempt++) {
                try {
                    Reply reply = run.transport().call(run.request(op));
                    out.add(Outcome.ok(op, reply.body(), attempt));
                    break;
                } catch (CallFailure e) {
                    if (attempt == attempts) {
                        out.add(Outcome.degraded(op, "timeout", attempt));
                        break;
                    }
                }
            }
        }
        return out;
    }
}
