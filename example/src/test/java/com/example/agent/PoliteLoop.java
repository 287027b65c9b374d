package com.example.agent;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Journal;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
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
 * A team's own loop, written the careful way: bounded backoff on transient errors, no retry on quota, no
 * repair of broken tool calls, half the concurrency after a slow first token, and a journal so a restarted
 * runner never repeats finished work nor spends the retries of the op in flight twice.
 */
public final class PoliteLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        Map<String, Outcome> finished = new HashMap<>();
        int concurrency = run.policy().concurrency();
        for (Outcome o : run.journal().completed()) {
            finished.put(o.op(), o);                      // what a previous process finished
            if (o.concurrency() != null) {
                concurrency = o.concurrency();            // and the limit it left
            }
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            Outcome outcome = finished.get(op);
            if (outcome == null) {
                outcome = attempt(run, op, concurrency);
                run.journal().record(outcome);            // durable before the next op starts
            }
            if (outcome.concurrency() != null) {
                concurrency = outcome.concurrency();
            }
            outcomes.add(outcome);
            if (outcome.status() == Status.STOPPED) {
                break;                                    // keep the finished work, call nothing more
            }
        }
        return outcomes;
    }

    private static Outcome attempt(LoopRun run, String op, int concurrency) {
        Policy policy = run.policy();
        Journal.Progress resumed = run.journal().progress(op);  // what a previous process spent on this op
        int attempts = resumed.attempts();
        int transientFailures = resumed.transientFailures();
        while (true) {
            if (attempts > 0) {
                // durable before the retry: a restart carries on here instead of spending the retries again
                run.journal().checkpoint(op, new Journal.Progress(attempts, transientFailures, 0, false));
            }
            attempts++;
            try {
                Reply reply = run.transport().call(run.request(op));
                Outcome ok = Outcome.ok(op, reply.body(), attempts);
                long thresholdMs = policy.slowFirstToken().threshold().toMillis();
                if (reply.firstTokenMs().isPresent() && reply.firstTokenMs().getAsLong() > thresholdMs) {
                    // no retry: record the latency and halve the concurrency limit
                    return ok.slow(reply.firstTokenMs().getAsLong(), Math.max(1, concurrency / 2));
                }
                return ok;
            } catch (TransientError e) {
                transientFailures++;
                Duration wait = policy.backoff(transientFailures);
                boolean fits = run.waited().plus(wait).compareTo(policy.maxTotalWait()) <= 0;
                if (transientFailures >= policy.maxAttempts() || !fits) {
                    return Outcome.degraded(op, "timeout", attempts);
                }
                run.sleeper().sleep(wait);                // virtual: no real time passes
            } catch (QuotaExhausted e) {
                return Outcome.stopped(op, e.retryAfter(), attempts);
            } catch (BadToolCall e) {
                return Outcome.degraded(op, "schema", attempts);
            } catch (CallFailure e) {
                throw new IllegalStateException("unexpected failure " + e, e);
            }
        }
    }
}
