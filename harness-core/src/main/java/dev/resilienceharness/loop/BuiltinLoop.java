package dev.resilienceharness.loop;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.CallResult;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.RepairRequest;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * The built-in loop: the workshop's {@code run_steps} grown into the policy table of docs builtin-loop.md.
 *
 * <ul>
 *   <li>timeout / 5xx: the op's n-th transient failure waits {@code min(base_delay*2^(n-1), max_delay)} and
 *       retries while n &lt; {@code max_attempts}; then the op degrades ({@code reason: timeout});</li>
 *   <li>quota with a {@code Retry-After} the policy may honour: wait the stated delay and retry once; a second
 *       quota on the op, or any other quota, stops the run ({@code reason: quota}) keeping all finished work;</li>
 *   <li>schema-broken tool call: up to {@code repair_attempts} repair calls (the payload with
 *       {@code schema.repair_instruction} appended to its messages, plus {@code "repair": n}: see
 *       {@link RepairRequest}); then the op degrades ({@code reason: schema});</li>
 *   <li>slow first token (later than the threshold): no retry; the concurrency limit halves (min 1) and the ok
 *       record carries {@code elapsed_ms} and the new {@code concurrency};</li>
 *   <li>a stream cut, stalled, broken by a malformed event or ended by an error event: transient, retried as above;
 *       the partial text is dropped, and the op's outcome records how many events of its last broken stream arrived
 *       ({@code stream_events}) and {@code partial_text: dropped}; truncated tool-call JSON is a schema failure;</li>
 *   <li>a rate-limit 429 (a full {@code provider_limits} window): wait the stated delay and retry, as often as it
 *       takes, while each delay is one the policy may honour; an {@code insufficient_quota} 429 stops the run at once
 *       ({@code reason: quota}, no {@code retry_after});</li>
 *   <li>a wait that would push the run's total past {@code max_total_wait} is not taken: a transient op
 *       degrades, a quota stops.</li>
 * </ul>
 * After a restart it resumes from its journal: finished ops are not called again and keep their recorded
 * outcomes; the op that was in flight carries on from its last checkpoint (attempts, retries and repairs
 * already spent), so the call lost in the crash is the only one repeated — "as if uninterrupted" — and the
 * concurrency limit is the one the journal last recorded.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class BuiltinLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        Policy policy = run.policy();
        Map<String, Outcome> journaled = new HashMap<>();
        int concurrency = policy.concurrency();
        for (Outcome o : run.journal().completed()) {
            journaled.putIfAbsent(o.op(), o);
            if (o.concurrency() != null) {
                concurrency = o.concurrency();
            }
        }
        List<Outcome> outcomes = new ArrayList<>(run.ops().size());
        for (String op : run.ops()) {
            Outcome outcome = journaled.get(op);
            if (outcome == null) {
                outcome = runOp(run, policy, op, concurrency);
                run.journal().record(outcome);
            }
            if (outcome.concurrency() != null) {
                concurrency = outcome.concurrency();
            }
            outcomes.add(outcome);
            if (outcome.status() == Status.STOPPED) {
                break;
            }
        }
        return outcomes;
    }

    private static Outcome runOp(LoopRun run, Policy policy, String op, int concurrency) {
        // Never changed here (a repair call sends a payload of its own), so the run's template can go out as it is.
        ObjectNode request = run.template(op);
        Journal.Progress resumed = run.journal().progress(op);
        int attempts = resumed.attempts();
        int transientFailures = resumed.transientFailures();
        int repairs = resumed.repairs();
        boolean quotaRetried = resumed.quotaRetried();
        String instruction = policy.schema().repairInstruction();
        ObjectNode payload = repairs > 0 ? run.repairTemplate(op, repairs, instruction) : request;
        Integer streamEvents = null;
        while (true) {
            if (attempts > 0) {
                run.journal().checkpoint(op, new Journal.Progress(attempts, transientFailures, repairs, quotaRetried));
            }
            attempts++;
            // The failure comes back as a value (Transport.send): the harness's transport throws none for a fault.
            CallResult result = run.transport().send(payload);
            if (result instanceof Reply reply) {
                Outcome ok = streamed(Outcome.ok(op, reply.body(), attempts), streamEvents);
                if (reply.firstTokenMs().isPresent() && isSlow(reply.firstTokenMs().getAsLong(), policy)) {
                    return ok.slow(reply.firstTokenMs().getAsLong(), Math.max(1, concurrency / 2));
                }
                return ok;
            } else if (result instanceof TransientError e) {
                transientFailures++;
                if (e.streamFault() != null) {
                    streamEvents = e.streamEvents(); // the partial text is dropped: the retry streams it all again
                }
                if (transientFailures >= policy.maxAttempts()) {
                    return streamed(Outcome.degraded(op, "timeout", attempts), streamEvents);
                }
                Duration wait = policy.backoff(transientFailures);
                if (!fits(run, policy, wait)) {
                    return streamed(Outcome.degraded(op, "timeout", attempts), streamEvents);
                }
                run.sleeper().sleep(wait);
            } else if (result instanceof QuotaExhausted e) {
                Optional<Duration> delay = e.delay(run.now());
                if (e.kind() == QuotaExhausted.Kind.INSUFFICIENT_QUOTA) {
                    return Outcome.stopped(op, null, attempts);
                }
                if (e.kind() == QuotaExhausted.Kind.RATE_LIMIT) {
                    // A window reopens after the stated delay: wait it as often as it takes, within the policy's bounds.
                    if (delay.isEmpty() || !policy.mayHonour(delay.get()) || !fits(run, policy, delay.get())) {
                        return Outcome.stopped(op, e.retryAfter(), attempts);
                    }
                    run.sleeper().sleep(delay.get());
                    continue;
                }
                if (quotaRetried || delay.isEmpty() || !policy.mayHonour(delay.get()) || !fits(run, policy, delay.get())) {
                    return Outcome.stopped(op, e.retryAfter(), attempts);
                }
                quotaRetried = true;
                run.sleeper().sleep(delay.get());
            } else if (result instanceof BadToolCall) {
                if (repairs >= policy.schema().repairAttempts()) {
                    return Outcome.degraded(op, "schema", attempts);
                }
                repairs++;
                payload = run.repairTemplate(op, repairs, instruction);
            } else {
                // CallResult and CallFailure are sealed: the four kinds above are all there are, so this is null.
                throw new IllegalStateException("the transport gave no reply and no failure for op '" + op + "'");
            }
        }
    }

    /** {@code outcome} with the events of the op's last broken stream, the partial text dropped; as it is without. */
    private static Outcome streamed(Outcome outcome, Integer streamEvents) {
        return streamEvents == null ? outcome : outcome.streamed(streamEvents, Outcome.DROPPED);
    }

    private static boolean isSlow(long elapsedMs, Policy policy) {
        long thresholdNanos = policy.slowFirstToken().threshold().toNanos();
        return elapsedMs > Long.MAX_VALUE / 1_000_000L || elapsedMs * 1_000_000L > thresholdNanos;
    }

    private static boolean fits(LoopRun run, Policy policy, Duration wait) {
        return run.waited().plus(wait).compareTo(policy.maxTotalWait()) <= 0;
    }
}
