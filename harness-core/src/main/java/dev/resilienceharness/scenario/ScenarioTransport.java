package dev.resilienceharness.scenario;

import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.clock.RunawayLoop;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.ProcessRecycled;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.RepairRequest;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.Transport;
import dev.resilienceharness.transport.TransientError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;
import tools.jackson.databind.node.ObjectNode;

/**
 * The transport a loop gets in a scenario run (SPEC section 5): answers every call for an op from the op's
 * cassette (a repair carrying the policy's instruction from its own cassette when one was recorded), applies the fault plan one entry per call, turns recorded schema-broken tool calls into
 * {@link BadToolCall}, and logs every call for the invariants.
 *
 * <p>Not thread-safe: one instance serves one scenario run.
 */
final class ScenarioTransport implements Transport {

    /** More calls than this in one run means the loop is stuck; the run is cut short. */
    static final int MAX_CALLS = 10_000;

    private final Map<ObjectNode, OpExchange> byTemplate;
    private final Map<ObjectNode, OpExchange> byRequest;
    private final Map<String, OpExchange> byFingerprint;
    private final RecordedAnswers recorded;
    private final VolatilePaths volatilePaths;
    private final List<Fault> plan;
    private final Policy policy;
    private final VirtualClock clock;
    private final RandomGenerator volatileRandom;
    private final Map<String, Reply> replies = new HashMap<>();
    private final Map<String, OpExchange> repairs = new HashMap<>();
    private final List<CallRecord> calls = new ArrayList<>();
    private int next;
    private int incarnation;
    private boolean dead;
    private int deadCalls;
    private CassetteMiss miss;

    /**
     * @param byTemplate     the exchange {@code exchanges} gives each op's own request node, keyed by identity
     * @param exchanges      each op's prepared exchange, keyed by the op's request
     * @param volatileRandom when not {@code null}, volatile response paths get fresh random values per op
     */
    ScenarioTransport(Map<ObjectNode, OpExchange> byTemplate, Map<ObjectNode, OpExchange> exchanges,
            Map<String, OpExchange> byFingerprint, RecordedAnswers recorded, VolatilePaths volatilePaths,
            List<Fault> plan, Policy policy, VirtualClock clock, RandomGenerator volatileRandom) {
        this.byTemplate = byTemplate;
        this.byRequest = exchanges;
        this.byFingerprint = byFingerprint;
        this.recorded = recorded;
        this.volatilePaths = volatilePaths;
        this.plan = plan;
        this.policy = policy;
        this.clock = clock;
        this.volatileRandom = volatileRandom;
    }

    /** A new process incarnation begins: calls work again. */
    void restart() {
        incarnation++;
        dead = false;
    }

    /** The first request no cassette answered, even if the loop caught the miss; else {@code null}. */
    CassetteMiss miss() {
        return miss;
    }

    /** Whether the current incarnation's process has died. */
    boolean dead() {
        return dead;
    }

    List<CallRecord> calls() {
        return calls;
    }

    @Override
    public Reply call(ObjectNode payload) throws CallFailure {
        if (dead) {
            // The process is gone; whatever it still tries cannot reach the provider.
            if (++deadCalls > MAX_CALLS) {
                throw new RunawayLoop("the loop kept calling after its process died " + MAX_CALLS + " times", false);
            }
            throw new ProcessRecycled("(after the process died)");
        }
        if (calls.size() >= MAX_CALLS) {
            throw new RunawayLoop("the loop made " + MAX_CALLS + " calls in one run without finishing", false);
        }
        int repair = payload.path("repair").asInt(0);
        OpExchange exchange = resolve(payload, repair);
        RecordedAnswers.Answer answer = recorded.answer(exchange);
        String op = exchange.op();
        Fault fault = next < plan.size() ? plan.get(next) : NoFault.INSTANCE;
        next++;
        long at = clock.elapsedNanos();
        int index = calls.size();
        try {
            Reply reply = fault.strike(op, recordedReply(exchange, answer));
            if (answer.schemaProblem() != null) {
                calls.add(new CallRecord(index, op, repair, fault.kind(), CallRecord.Result.SCHEMA, 0, null, false,
                        at, null, incarnation));
                throw new BadToolCall(answer.schemaProblem());
            }
            Long firstToken = reply.firstTokenMs().isPresent() ? reply.firstTokenMs().getAsLong() : null;
            calls.add(new CallRecord(index, op, repair, fault.kind(), CallRecord.Result.OK, 0, null, false, at,
                    firstToken, incarnation));
            return reply;
        } catch (TransientError e) {
            calls.add(new CallRecord(index, op, repair, fault.kind(), CallRecord.Result.TRANSIENT, e.status(), null,
                    false, at, null, incarnation));
            throw e;
        } catch (QuotaExhausted e) {
            Optional<Duration> delay = e.delay(clock.now());
            boolean honourable = delay.isPresent() && policy.mayHonour(delay.get());
            calls.add(new CallRecord(index, op, repair, fault.kind(), CallRecord.Result.QUOTA, 429, e.retryAfter(),
                    honourable, at, null, incarnation));
            throw e;
        } catch (BadToolCall e) {
            if (calls.size() == index) {
                calls.add(new CallRecord(index, op, repair, fault.kind(), CallRecord.Result.SCHEMA, 0, null, false,
                        at, null, incarnation));
            }
            throw e;
        } catch (ProcessRecycled e) {
            calls.add(new CallRecord(index, op, repair, fault.kind(), CallRecord.Result.CRASH, 0, null, false, at,
                    null, incarnation));
            dead = true;
            throw e;
        }
    }

    private OpExchange resolve(ObjectNode payload, int repair) {
        ObjectNode request = payload;
        if (payload.has(RepairRequest.MARKER)) {
            request = RepairRequest.sent(payload);
        } else {
            OpExchange known = byTemplate.get(payload);
            if (known != null) {
                return known;
            }
        }
        OpExchange exchange = byRequest.get(request);
        if (exchange != null) {
            return exchange;
        }
        String fp = dev.resilienceharness.cassette.CassetteReader.fingerprint(request, volatilePaths);
        exchange = byFingerprint.get(fp);
        if (exchange == null && payload.has(RepairRequest.MARKER)) {
            exchange = repairExchange(request, fp);
        }
        if (exchange == null) {
            String op = request.path("op").isString() ? request.get("op").asString() : "(undeclared request)";
            OpExchange nearest = null;
            List<String> nearestPaths = List.of();
            for (Map.Entry<ObjectNode, OpExchange> candidate : byRequest.entrySet()) {
                List<String> diff = dev.resilienceharness.json.JsonDiff.paths(candidate.getKey(), request);
                if (nearest == null || diff.size() < nearestPaths.size()) {
                    nearest = candidate.getValue();
                    nearestPaths = diff;
                }
            }
            CassetteMiss m = new CassetteMiss(op, fp, nearest == null || nearest.file() == null ? null
                    : nearest.file().getFileName().toString(), nearestPaths);
            if (miss == null) {
                miss = m;
            }
            throw m;
        }
        return exchange;
    }

    /**
     * The exchange answering a repair request that carries the policy's instruction: the repair's own cassette when
     * one was recorded, else the op's; {@code null} when the request is no repair of a known op.
     */
    private OpExchange repairExchange(ObjectNode sent, String fp) {
        ObjectNode original = RepairRequest.original(sent, policy.schema().repairInstruction());
        OpExchange known = byRequest.get(original);
        OpExchange op = known != null ? known
                : byFingerprint.get(dev.resilienceharness.cassette.CassetteReader.fingerprint(original, volatilePaths));
        if (op == null) {
            return null;
        }
        return repairs.computeIfAbsent(fp, k -> {
            Path own = op.file().resolveSibling(k + ".json");
            return Files.isRegularFile(own) ? new OpExchange(op.op(), sent, k, own) : op;
        });
    }

    private Reply recordedReply(OpExchange exchange, RecordedAnswers.Answer answer) {
        Reply recorded = answer.reply();
        if (volatileRandom == null || !volatilePaths.touchesResponse()) {
            return recorded;
        }
        return replies.computeIfAbsent(exchange.op(), op -> new Reply(
                volatilePaths.randomizeResponse(recorded.body(), volatileRandom), recorded.firstTokenMs()));
    }
}
