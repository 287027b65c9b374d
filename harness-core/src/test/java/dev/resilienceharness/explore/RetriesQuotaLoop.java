package dev.resilienceharness.explore;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A careful loop with one mistake: a quota rejection without {@code Retry-After} is retried at once instead of
 * stopping the run. Everything else is conservative: transient failures back off within the policy and its
 * total wait, a quota with the header stops, a broken tool call degrades, and finished ops are journaled.
 */
public final class RetriesQuotaLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        Map<String, Outcome> journaled = new HashMap<>();
        run.journal().completed().forEach(o -> journaled.putIfAbsent(o.op(), o));
        List<Outcome> out = new ArrayList<>();
        for (String op : run.ops()) {
            Outcome outcome = journaled.get(op);
            if (outcome == null) {
                outcome = runOp(run, op);
                run.journal().record(outcome);
            }
            out.add(outcome);
            if (outcome.status() == dev.resilienceharness.loop.Status.STOPPED) {
                break;
            }
        }
        return out;
    }

    private static Outcome runOp(LoopRun run, String op) {
        Policy policy = run.policy();
        int attempts = 0;
        int transients = 0;
        boolean quotaRetried = false;
        while (true) {
            attempts++;
            try {
                Reply reply = run.transport().call(run.request(op));
                return Outcome.ok(op, reply.body(), attempts);
            } catch (TransientError e) {
                transients++;
                Duration wait = policy.backoff(transients);
                if (transients >= policy.maxAttempts()
                        || run.waited().plus(wait).compareTo(policy.maxTotalWait()) > 0) {
                    return Outcome.degraded(op, "timeout", attempts);
                }
                run.sleeper().sleep(wait);
            } catch (QuotaExhausted e) {
                if (e.retryAfter() != null || quotaRetried) {
                    return Outcome.stopped(op, e.retryAfter(), attempts);
                }
                quotaRetried = true; // the mistake: no header means stop, not retry
            } catch (BadToolCall e) {
                return Outcome.degraded(op, "schema", attempts);
            } catch (CallFailure e) {
                throw new AssertionError("CallFailure is sealed: " + e, e);
            }
        }
    }
}
