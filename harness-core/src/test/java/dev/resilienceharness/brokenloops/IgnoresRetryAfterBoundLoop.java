package dev.resilienceharness.brokenloops;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import java.util.ArrayList;
import java.util.List;

/** Waits out any stated Retry-After and retries, however long the delay: it ignores max_retry_after. */
public final class IgnoresRetryAfterBoundLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> out = new ArrayList<>();
        for (String op : run.ops()) {
            int attempt = 0;
            while (true) {
                attempt++;
                try {
                    Reply reply = run.transport().call(run.request(op));
                    out.add(Outcome.ok(op, reply.body(), attempt));
                    break;
                } catch (QuotaExhausted e) {
                    var delay = e.delay(run.now());
                    if (delay.isEmpty() || attempt > 1) {
                        out.add(Outcome.stopped(op, e.retryAfter(), attempt));
                        return out;
                    }
                    run.sleeper().sleep(delay.get());
                } catch (CallFailure e) {
                    out.add(Outcome.degraded(op, "timeout", attempt));
                    break;
                }
            }
        }
        return out;
    }

}
