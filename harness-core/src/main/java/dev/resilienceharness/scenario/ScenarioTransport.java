package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.clock.RunawayLoop;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.TruncatedToolCallFault;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.http.StreamReplay;
import dev.resilienceharness.trace.StreamTrace;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.limits.Limiter;
import dev.resilienceharness.limits.Refusal;
import dev.resilienceharness.limits.Tokens;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.AttemptTimeout;
import dev.resilienceharness.http.BedrockChunks;
import dev.resilienceharness.http.FaultAnswer;
import dev.resilienceharness.http.FaultAsHttp;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.CallResult;
import dev.resilienceharness.transport.ProcessRecycled;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.RepairRequest;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.Transport;
import dev.resilienceharness.transport.TransientError;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The transport a loop gets in a scenario run (docs faults.md): answers every call for an op from the op's
 * cassette (a repair carrying the policy's instruction from its own cassette when one was recorded), applies the
 * fault plan one entry per call, turns recorded schema-broken tool calls into {@link BadToolCall}, and logs every
 * call for the invariants. It is also the run's {@link HttpEndpoint}: an SDK adapter's HTTP attempts go through the
 * same plan, cassettes and log, each answered as the HTTP that SDK would see.
 *
 * <p>One instance serves one scenario run; its methods are synchronized so that an SDK answering on a thread of its
 * own sees the run as the loop does.
 */
final class ScenarioTransport implements Transport, HttpEndpoint {

    /** More calls than this in one run means the loop is stuck; the run is cut short. */
    static final int MAX_CALLS = 10_000;

    private final Lookup lookup;
    private final RunOps scenarioOps;
    private final List<Fault> plan;
    private final Policy policy;
    private final VirtualClock clock;
    private final RandomGenerator volatileRandom;
    private final HttpRecorder recorder;
    private final Fault unfaulted;
    private final Map<String, Reply> replies = new HashMap<>();
    private final Map<String, OpExchange> repairs = new HashMap<>();
    private final List<CallRecord> calls = new ArrayList<>();
    private final Deque<String> scopes = new ArrayDeque<>();
    private final Map<Integer, StreamProgress> streams = new LinkedHashMap<>();
    /** By call index: when the body of a {@code {latency: recorded}} answer is complete, after its first byte. */
    private final Map<Integer, Duration> bodyComplete = new HashMap<>();
    private int next;
    private int incarnation;
    private boolean dead;
    private int deadCalls;
    private int deadActs;
    private volatile long activity;
    /** The first request no cassette answered, or tool call no recording answered. */
    private RuntimeException miss;
    private final Limiter limiter;
    private final EndpointTurns turns;
    private McpRuns mcp;
    private ToolRuns tools = new ToolRuns(this, dev.resilienceharness.tool.ToolDeclaration::undeclared, Map.of(), null,
            null);

    /**
     * @param lookup          how a request finds its op's exchange
     * @param scenarioOps     the ops the scenario lists, with their prepared requests: a call for any other op is
     *                        reported under budget
     * @param volatileRandom  when not {@code null}, volatile response paths get fresh random values per op
     * @param recorder        records what no cassette answers an SDK with, or {@code null} to replay only
     * @param recordedLatency whether the calls the plan does not fault meet {@code {latency: recorded}}
     * @param limiter         the endpoint's {@code provider_limits}, checked after the fault plan, or {@code null} for
     *                        none
     * @param turns           hands the endpoint to this run in order of virtual time when others share it
     */
    ScenarioTransport(Lookup lookup, RunOps scenarioOps, List<Fault> plan, Policy policy, VirtualClock clock,
            RandomGenerator volatileRandom, HttpRecorder recorder, boolean recordedLatency, Limiter limiter,
            EndpointTurns turns) {
        this.unfaulted = recordedLatency ? dev.resilienceharness.fault.RecordedLatencyFault.INSTANCE
                : NoFault.INSTANCE;
        this.limiter = limiter;
        this.turns = turns;
        this.lookup = lookup;
        this.scenarioOps = scenarioOps;
        this.plan = plan;
        this.policy = policy;
        this.clock = clock;
        this.volatileRandom = volatileRandom;
        this.recorder = recorder;
    }

    /**
     * Runs the tools of this run with {@code declarations} and the scenario's {@code faults}, the {@code replay:
     * recorded} ones answered from {@code recordings} (what none answers recorded by this transport's recorder, if
     * any): before it starts.
     */
    ScenarioTransport withTools(java.util.function.Function<String, dev.resilienceharness.tool.ToolDeclaration>
            declarations, Map<String, List<dev.resilienceharness.tool.ToolFault>> faults,
            dev.resilienceharness.cassette.ToolRecordings recordings) {
        this.tools = new ToolRuns(this, declarations, faults, recordings, recorder);
        return this;
    }

    /**
     * Answers this run's MCP clients ({@link #mcp}) for the servers {@code config} declares, from {@code cassettes},
     * with {@code scenario}'s MCP faults; in a recording run, {@code live} answers what no cassette does ({@code null}
     * to replay only). Before the run starts.
     */
    ScenarioTransport withMcp(dev.resilienceharness.config.HarnessConfig config,
            dev.resilienceharness.config.Scenario scenario, McpCassettes cassettes,
            dev.resilienceharness.mcp.McpLive live) {
        this.mcp = new McpRuns(this, config, scenario, cassettes, live);
        return this;
    }

    /**
     * A tool call no recording answered, or an MCP request nothing answered: the run fails on it even if the loop
     * catches it. Under the lock.
     */
    void missed(RuntimeException toolMiss) {
        if (miss == null) {
            miss = toolMiss;
        }
    }

    /** The tool executions of the run, to which MCP tool calls are added. */
    ToolRuns toolRuns() {
        return tools;
    }

    /** Every MCP message of the run so far. */
    synchronized List<dev.resilienceharness.trace.McpRecord> mcpRecords() {
        return mcp == null ? List.of() : mcp.records();
    }

    @Override
    public dev.resilienceharness.mcp.McpEndpoint mcp(String server, String layer) {
        if (mcp == null) {
            throw new IllegalArgumentException(McpRunMessages.undeclared(server, List.of()));
        }
        return mcp.endpoint(server, layer);
    }

    /** Every tool execution of the run so far. */
    List<dev.resilienceharness.trace.ToolRecord> toolRecords() {
        return tools.records();
    }

    @Override
    public String tool(dev.resilienceharness.tool.ToolCall call, dev.resilienceharness.tool.ToolBody body)
            throws Exception {
        return tools.execute(call, body);
    }

    /** A tool execution starts: the process must be alive, as for a call. Under this transport's lock. */
    void toolStarting() {
        activity++;
        if (dead) {
            deadActs++;
            throw new ProcessRecycled("(after the process died)");
        }
    }

    /**
     * The op a tool execution runs for: the innermost op scope, else the op of the run's last call in this process,
     * else {@code (no op)}. Under this transport's lock.
     */
    String currentOp() {
        String scoped = scopes.peek();
        if (scoped != null) {
            return scoped;
        }
        for (int i = calls.size() - 1; i >= 0; i--) {
            if (calls.get(i).incarnation() == incarnation) {
                return calls.get(i).op();
            }
        }
        return "(no op)";
    }

    /** The current process incarnation. Under this transport's lock. */
    int incarnation() {
        return incarnation;
    }

    /** The calls so far, not copied. Under this transport's lock. */
    List<CallRecord> callsSoFar() {
        return calls;
    }

    /** Virtual time since the run's start. */
    long elapsedNanos() {
        return clock.elapsedNanos();
    }

    /** Moves the virtual clock on by time a tool took: provider time, not the loop's waiting. Under the lock. */
    void elapse(Duration d) {
        activity++;
        clock.elapse(d);
    }

    /** The ops the scenario lists, with their prepared requests. */
    RunOps ops() {
        return scenarioOps;
    }

    /** A new process incarnation begins: calls, waits and journal writes work again. */
    synchronized void restart() {
        incarnation++;
        dead = false;
        clock.resume();
    }

    /**
     * The first request no cassette answered (or {@code replay: recorded} tool call no recording answered), even if
     * the loop caught the miss; else {@code null}.
     */
    synchronized RuntimeException miss() {
        return miss;
    }

    /** Whether the current incarnation's process has died. */
    synchronized boolean dead() {
        return dead;
    }

    /** Notes that the dead process tried to act (call, wait or journal): it had caught its own death. */
    synchronized void deadProcessActed() {
        deadActs++;
    }

    /** How often a dead process went on acting, across the run: non-zero when the loop swallowed a crash. */
    synchronized int deadActs() {
        return deadActs;
    }

    synchronized List<CallRecord> calls() {
        return List.copyOf(calls);
    }

    /**
     * A count that grows with every call, exchange, body and wait the loop (or its SDK) asks of this transport, for a
     * watch on another thread to tell a run that stalls from one that works.
     */
    long activity() {
        return activity;
    }

    @Override
    public Reply call(ObjectNode payload) throws CallFailure {
        CallResult result = send(payload);
        if (result instanceof CallFailure failure) {
            throw failure;
        }
        return (Reply) result;
    }

    /**
     * The call, with its failure made and recorded but not thrown: an injected fault asks for no unwinding (the
     * built-in loop meets thousands of them in a check). {@link ProcessRecycled} is still thrown.
     */
    @Override
    public synchronized CallResult send(ObjectNode payload) {
        checkAlive();
        // The built-in loop sends an op's prepared request itself, which is never a repair.
        int prepared = scenarioOps.indexSending(payload);
        int repair = 0;
        OpExchange exchange;
        RecordedAnswers.Answer answer;
        if (prepared >= 0) {
            exchange = scenarioOps.exchange(prepared);
            answer = scenarioOps.answer(prepared, lookup.answers());
        } else {
            repair = payload.path(RepairRequest.MARKER).asInt(0);
            exchange = resolve(payload, repair);
            answer = lookup.answers().answer(exchange);
        }
        String op = exchange.op();
        Fault fault = nextFault();
        long at = clock.elapsedNanos();
        int index = calls.size();
        String model = exchange.model();
        Reply recorded = recordedReply(exchange, answer);
        CallEntry call = CallEntry.call(index, at).op(op, repair).fault(fault.kind());
        Tokens tokens = Tokens.NONE;
        if (FaultAsHttp.needsRecordedAnswer(fault)) {
            tokens = tokens(exchange, answer);
            Refusal refusal = limit(fault, recorded, tokens);
            if (refusal != null) {
                calls.add(refused(call, refusal, model));
                return refusal.failure();
            }
        }
        Fault drawn = drawn(fault, answer, exchange, index);
        CallFailure failure = drawn.failure(op);
        Reply reply = null;
        if (failure == null) {
            try {
                reply = drawn.strike(op, recorded);
            } catch (CallFailure e) {
                // A fault with no failure of its own answers (Fault.failure); one that throws anyway fails the call so.
                failure = e;
            } catch (ProcessRecycled e) {
                calls.add(call.result(CallRecord.Result.CRASH).toRecord(incarnation));
                die();
                throw e;
            }
        }
        if (reply != null) {
            if (answer.schemaProblem() == null) {
                Long firstToken = reply.firstTokenMs().isPresent() ? reply.firstTokenMs().getAsLong() : null;
                calls.add(call.result(CallRecord.Result.OK).firstTokenMs(firstToken).tokens(tokens).model(model)
                        .toRecord(incarnation));
                return reply;
            }
            // The answer came, but a tool call in it breaks its schema: recorded as a bad tool call, below.
            failure = new BadToolCall(answer.schemaProblem());
        }
        if (failure instanceof TransientError e) {
            calls.add(call.result(CallRecord.Result.TRANSIENT).status(e.status()).toRecord(incarnation));
        } else if (failure instanceof QuotaExhausted e) {
            Optional<Duration> delay = e.delay(clock.now());
            boolean honourable = delay.isPresent() && policy.mayHonour(delay.get());
            calls.add(call.result(CallRecord.Result.QUOTA).status(429).retryAfter(e.retryAfter(), honourable)
                    .toRecord(incarnation));
        } else {
            // CallFailure is sealed: what is left is a bad tool call.
            calls.add(call.result(CallRecord.Result.SCHEMA).tokens(tokens).model(model).toRecord(incarnation));
        }
        return failure;
    }

    @Override
    public synchronized HttpAnswer exchange(HttpAttempt attempt) {
        checkAlive();
        ObjectNode request = ApiShape.request("/" + attempt.path(), parse(attempt));
        int repair = request.path("repair").asInt(0);
        String scoped = scopes.peek();
        OpExchange exchange = lookup.forRequest(request, repair, scoped);
        if (exchange == null && ApiShape.streams(request)) {
            // A stream of a request recorded whole (as Spring AI's stream() recorded it before streams were kept):
            // that answer is streamed as the provider would have split it.
            exchange = lookup.forRequest(ApiShape.withoutStreaming(request), repair, scoped);
        }
        if (exchange == null) {
            // Only now, the same request with its tools in another order (a framework's reflection order).
            exchange = lookup.forRequestInAnyToolOrder(request, repair, scoped);
            if (exchange == null && ApiShape.streams(request)) {
                exchange = lookup.forRequestInAnyToolOrder(ApiShape.withoutStreaming(request), repair, scoped);
            }
        }
        String op = exchange != null ? exchange.op() : scoped;
        if (op == null) {
            throw new UnlistedOp(RunMessages.unattributed(attempt.path(), lookup.fingerprint(request), scenarioOps));
        }
        if (exchange == null) {
            if (!scenarioOps.contains(op)) {
                throw new UnlistedOp(RunMessages.notListed(op, scenarioOps));
            }
            exchange = recordOrMiss(op, request, attempt);
        }
        RecordedAnswers.Answer answer = lookup.answers().answer(exchange);
        Fault fault = nextFault();
        long at = clock.elapsedNanos();
        int index = calls.size();
        Reply recorded = recordedReply(exchange, answer);
        ApiShape shape = ApiShape.forPath("/" + attempt.path());
        if (shape == null) {
            shape = ApiShape.CHAT_COMPLETIONS;
        }
        Duration timeout = AttemptTimeout.onClock(attempt.timeout());
        String sdk = attempt.sdk();
        int retry = attempt.sdkRetry();
        String model = OpExchange.modelOf(request);
        CallEntry call = CallEntry.call(index, at).op(op, repair).fault(fault.kind()).sentBy(sdk, retry);
        Tokens tokens = Tokens.NONE;
        if (FaultAsHttp.needsRecordedAnswer(fault)) {
            tokens = tokens(exchange, answer);
            Refusal refusal = limit(fault, recorded, tokens);
            if (refusal != null) {
                calls.add(refused(call, refusal, model));
                return httpAnswer(index, FaultAnswer.error(429, shape.errorHeaders(429, refusal.headers()),
                        shape.errorBody(429, refusal.code(), refusal.message(), null)));
            }
        }
        FaultAnswer http = FaultAsHttp.answer(drawn(fault, answer, exchange, index), shape, request,
                FaultAsHttp.answerable(shape, recorded.body(), exchange.fingerprint()),
                recorded.firstTokenMs().orElse(0), timeout);
        switch (http.outcome()) {
            case CRASH -> {
                calls.add(call.result(CallRecord.Result.CRASH).toRecord(incarnation));
                die();
                throw new ProcessRecycled(op);
            }
            case TIMEOUT -> {
                calls.add(call.result(CallRecord.Result.TRANSIENT).toRecord(incarnation));
                clock.elapse(timeout);
                return new HttpAnswer.TimedOut(timeout);
            }
            case ANSWER -> {
                Long firstToken = http.delay().isZero() ? null : http.delay().toMillis();
                if (http.status() == 429) {
                    String retryAfter = http.headers().get("Retry-After");
                    Optional<Duration> delay = new QuotaExhausted(retryAfter).delay(clock.now());
                    boolean honourable = delay.isPresent() && policy.mayHonour(delay.get());
                    calls.add(call.result(CallRecord.Result.QUOTA).status(429).retryAfter(retryAfter, honourable)
                            .toRecord(incarnation));
                } else if (http.status() >= 500) {
                    calls.add(call.result(CallRecord.Result.TRANSIENT).status(http.status()).toRecord(incarnation));
                } else if (ApiShape.streams(request)) {
                    return streamed(call.tokens(tokens).model(model), fault, answer, exchange, shape, request,
                            recorded, BedrockChunks.streams(attempt.path()));
                } else {
                    completeAfterTotal(fault, answer, exchange, index, http);
                    boolean broken = fault instanceof BadToolCallFault || answer.schemaProblem() != null
                            || fault instanceof TruncatedToolCallFault;
                    calls.add(call.result(broken ? CallRecord.Result.SCHEMA : CallRecord.Result.OK)
                            .firstTokenMs(firstToken).tokens(tokens).model(model).toRecord(incarnation));
                    if (limiter != null) {
                        Map<String, String> withLimits = new LinkedHashMap<>(http.headers());
                        withLimits.putAll(limiter.headers(at));
                        http = new FaultAnswer(http.outcome(), http.status(), withLimits, http.body(), http.delay());
                    }
                }
            }
        }
        return httpAnswer(index, http);
    }

    private static HttpAnswer httpAnswer(int index, FaultAnswer http) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("content-type", List.of("application/json"));
        http.headers().forEach((k, v) -> headers.put(k, List.of(v)));
        byte[] body = http.body() == null ? new byte[0] : Json.compact(http.body()).getBytes(StandardCharsets.UTF_8);
        return new HttpAnswer.Response(index, http.status(), headers, body, http.delay());
    }

    @Override
    public synchronized InputStream body(HttpAnswer.Response response, Duration readTimeout) {
        activity++;
        StreamProgress stream = streams.get(response.index());
        if (stream != null && response.events() != null) {
            return new StreamBody(stream, readTimeout);
        }
        return new LateBody(response, readTimeout);
    }

    /** Every streamed answer of the run so far, by call. */
    synchronized List<StreamTrace> streams() {
        List<StreamTrace> out = new ArrayList<>(streams.size());
        for (StreamProgress p : streams.values()) {
            out.add(p.trace());
        }
        return out;
    }

    /**
     * A 200 to a streaming request: the recorded events (or those the answer stands for) with the fault applied,
     * read event by event on the virtual clock through {@link #body}; as Bedrock's chunk frames when {@code chunks}.
     */
    private HttpAnswer.Response streamed(CallEntry call, Fault fault, RecordedAnswers.Answer answer,
            OpExchange exchange, ApiShape shape, ObjectNode request, Reply recorded, boolean chunks) {
        int index = call.index();
        long at = call.atNanos();
        JsonNode body = FaultAsHttp.answerable(shape, recorded.body(), exchange.fingerprint());
        long firstTokenMs = recorded.firstTokenMs().orElse(0);
        StreamReplay replay = StreamReplay.of(fault, shape, answer.stream(), body, firstTokenMs, request,
                exchange.fingerprint());
        if (chunks) {
            replay = BedrockChunks.replay(replay, fault); // Messages events in Bedrock's chunk frames
        }
        String fullText = StreamReplay.text(StreamReplay.of(NoFault.INSTANCE, shape, answer.stream(), body,
                firstTokenMs, request, exchange.fingerprint()).events());
        boolean broken = fault instanceof BadToolCallFault || fault instanceof TruncatedToolCallFault
                || answer.schemaProblem() != null;
        Long firstToken = replay.events().isEmpty() || replay.events().get(0).atMs() == 0 ? null
                : replay.events().get(0).atMs();
        calls.add(call.result(broken ? CallRecord.Result.SCHEMA : CallRecord.Result.OK).firstTokenMs(firstToken)
                .toRecord(incarnation));
        streams.put(index, new StreamProgress(index, call.op(), fault.kind(), replay, fullText, shape, chunks));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("content-type", List.of(StreamReplay.contentType(shape)));
        if (chunks) {
            BedrockChunks.headers().forEach((k, v) -> headers.put(k, List.of(v)));
        }
        if (limiter != null) {
            limiter.headers(at).forEach((k, v) -> headers.put(k, List.of(v)));
        }
        return new HttpAnswer.Response(index, 200, headers, chunks ? BedrockChunks.frames(replay.events())
                : replay.wire(shape), Duration.ofMillis(firstToken == null ? 0
                : firstToken), replay.events());
    }

    @Override
    public Clock clock() {
        return clock.asClock();
    }

    @Override
    public synchronized void sleep(Duration duration, String sdk) {
        activity++;
        if (dead) {
            deadActs++;
            return;
        }
        clock.sleep(duration, sdk);
    }

    @Override
    public synchronized Scope op(String op) {
        scopes.push(op);
        return () -> {
            synchronized (ScenarioTransport.this) {
                scopes.remove(op);
            }
        };
    }

    private void checkAlive() {
        activity++;
        if (dead) {
            deadActs++;
            // The process is gone; whatever it still tries cannot reach the provider.
            if (++deadCalls > MAX_CALLS) {
                throw new RunawayLoop("the loop kept calling after its process died " + MAX_CALLS + " times", false);
            }
            throw new ProcessRecycled("(after the process died)");
        }
        if (calls.size() >= MAX_CALLS) {
            throw new RunawayLoop("the loop made " + MAX_CALLS + " calls in one run without finishing", false);
        }
    }

    private void die() {
        dead = true;
        clock.suspend();
    }

    /** The fault a call meets: {@code {latency: recorded}} draws its delay from the cassette's timing samples. */
    private static Fault drawn(Fault fault, RecordedAnswers.Answer answer, OpExchange exchange, int index) {
        return fault instanceof dev.resilienceharness.fault.RecordedLatencyFault l
                ? l.draw(answer.samples(), exchange.fingerprint(), index) : fault;
    }

    /**
     * Under {@code {latency: recorded}}, notes when the answer's body is complete: its first byte comes after the
     * drawn sample's first-token time, the last after its total time.
     */
    private void completeAfterTotal(Fault fault, RecordedAnswers.Answer answer, OpExchange exchange, int index,
            FaultAnswer http) {
        if (fault instanceof dev.resilienceharness.fault.RecordedLatencyFault l) {
            Long total = dev.resilienceharness.fault.RecordedLatencyFault.bodyCompleteMs(
                    l.sample(answer.samples(), exchange.fingerprint(), index), http.delay().toMillis());
            if (total != null) {
                bodyComplete.put(index, Duration.ofMillis(total));
            }
        }
    }

    /** How long after its first byte the body of call {@code index} is complete; zero when it comes whole. */
    private synchronized Duration restOfBody(HttpAnswer.Response response) {
        Duration complete = bodyComplete.get(response.index());
        return complete == null ? Duration.ZERO : complete.minus(response.firstByte());
    }

    private Fault nextFault() {
        Fault fault = next < plan.size() ? plan.get(next) : NoFault.INSTANCE;
        next++;
        return fault instanceof NoFault ? unfaulted : fault;
    }

    /** A call the limits refused with a 429. */
    private CallRecord refused(CallEntry call, Refusal refusal, String model) {
        String limit = refusal.kind() == QuotaExhausted.Kind.INSUFFICIENT_QUOTA ? CallRecord.INSUFFICIENT_QUOTA
                : CallRecord.RATE_LIMIT;
        return call.result(CallRecord.Result.QUOTA).status(429).retryAfter(refusal.retryAfter(), false).limit(limit)
                .model(model).toRecord(incarnation);
    }

    /**
     * The limits' answer to a call that would be answered as recorded ({@code null}: admitted). The scripted fault
     * came first: only a call it lets through reaches the limits. With others sharing the endpoint, the call waits
     * for its turn in virtual time first.
     */
    private Refusal limit(Fault fault, Reply recorded, Tokens tokens) {
        if (limiter == null) {
            return null;
        }
        long durationMs = fault instanceof SlowFirstTokenFault slow ? slow.elapsedMs()
                : recorded.firstTokenMs().orElse(0);
        long at = clock.elapsedNanos();
        turns.await(at);
        return limiter.admit(at, Math.max(0, durationMs) * 1_000_000L, tokens);
    }

    /** The tokens the recorded answer to {@code exchange} spends, counted once per answer. */
    private static Tokens tokens(OpExchange exchange, RecordedAnswers.Answer answer) {
        return answer.tokens(exchange.request());
    }

    private static ObjectNode parse(HttpAttempt attempt) {
        JsonNode body;
        try {
            body = Json.readTree(attempt.body());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(attempt.sdk() + " sent a " + attempt.method() + " " + attempt.path()
                    + " whose body is not JSON; only JSON requests can be answered from cassettes", e);
        }
        if (!(body instanceof ObjectNode o)) {
            throw new IllegalArgumentException(attempt.sdk() + " sent a " + attempt.method() + " " + attempt.path()
                    + " whose body is not a JSON object; only JSON object requests can be answered from cassettes");
        }
        return o;
    }

    private OpExchange recordOrMiss(String op, ObjectNode request, HttpAttempt attempt) {
        if (recorder != null) {
            return recorder.record(op, request, attempt);
        }
        CassetteMiss m = lookup.miss(op, request);
        if (miss == null) {
            miss = m;
        }
        throw m;
    }

    private OpExchange resolve(ObjectNode payload, int repair) {
        OpExchange exchange = lookup.forPayload(payload, repair, scenarioOps, policy.schema().repairInstruction());
        if (exchange == null) {
            ObjectNode request = payload.has(RepairRequest.MARKER) ? RepairRequest.sent(payload) : payload;
            String op = request.path("op").isString() ? request.get("op").asString() : "(undeclared request)";
            CassetteMiss m = lookup.nearestDeclared(op, request);
            if (miss == null) {
                miss = m;
            }
            throw m;
        }
        return exchange;
    }

    private Reply recordedReply(OpExchange exchange, RecordedAnswers.Answer answer) {
        Reply recorded = answer.reply();
        if (volatileRandom == null || !lookup.volatilePaths().touchesResponse()) {
            return recorded;
        }
        return replies.computeIfAbsent(exchange.fingerprint(), fp -> new Reply(
                lookup.volatilePaths().randomizeResponse(recorded.body(), volatileRandom), recorded.firstTokenMs()));
    }

    /** Marks call {@code index} as a timeout: its body came later than the SDK's read timeout. */
    private synchronized void timedOutReading(int index, Duration readTimeout) {
        CallRecord c = calls.get(index);
        calls.set(index, new CallRecord(c.index(), c.op(), c.repair(), c.fault(), CallRecord.Result.TRANSIENT, 0, null,
                false, c.atNanos(), null, c.incarnation(), c.sdk(), c.sdkRetry(), c.tokens(), c.limit(), c.model()));
        clock.elapse(readTimeout);
    }

    private synchronized void arrived(Duration firstByte) {
        clock.elapse(firstByte);
    }

    /** Marks call {@code index} as transient: its stream broke part-way. */
    private void brokeStream(int index) {
        CallRecord c = calls.get(index);
        if (c.result() == CallRecord.Result.OK) {
            calls.set(index, new CallRecord(c.index(), c.op(), c.repair(), c.fault(), CallRecord.Result.TRANSIENT, 0,
                    null, false, c.atNanos(), c.firstTokenMs(), c.incarnation(), c.sdk(), c.sdkRetry(), c.tokens(),
                    c.limit(), c.model()));
        }
    }

    /** What one replayed stream has delivered so far. */
    private final class StreamProgress {
        final int index;
        final String op;
        final String fault;
        final StreamReplay replay;
        final String fullText;
        final ApiShape shape;
        /** Whether the events go out as Bedrock's chunk frames ({@link BedrockChunks}). */
        final boolean chunks;
        final List<Long> arrivals = new ArrayList<>();
        final StringBuilder text = new StringBuilder();
        String end = "unread";
        Long endNanos;
        int next;
        long atMs;

        StreamProgress(int index, String op, String fault, StreamReplay replay, String fullText, ApiShape shape,
                boolean chunks) {
            this.shape = shape;
            this.chunks = chunks;
            this.index = index;
            this.op = op;
            this.fault = fault;
            this.replay = replay;
            this.fullText = fullText;
        }

        StreamTrace trace() {
            boolean brokenEnd = !"done".equals(end) && !"unread".equals(end);
            return new StreamTrace(index, op, fault, arrivals, replay.events().size(), end, endNanos,
                    brokenEnd ? text.toString() : "", fullText);
        }

        /** The next event's wire bytes after waiting for it on the virtual clock, or {@code null} at the end. */
        byte[] nextEvent(Duration readTimeout) throws IOException {
            synchronized (ScenarioTransport.this) {
                if (!"unread".equals(end) && !"reading".equals(end)) {
                    if ("done".equals(end) || "error_event".equals(end) || "malformed_event".equals(end)) {
                        return null;
                    }
                    throw new IOException("the stream is already broken (" + end + ")");
                }
                end = "reading";
                if (next >= replay.events().size()) {
                    if (replay.ending() == StreamReplay.Ending.CUT) {
                        end = "cut";
                        endNanos = clock.elapsedNanos();
                        brokeStream(index);
                        throw new IOException("Connection reset: the stream was cut after " + next
                                + (next == 1 ? " event" : " events") + " (injected stream_cut fault)");
                    }
                    end = "done";
                    return null;
                }
                StreamEvent e = replay.events().get(next);
                long waitMs = e.atMs() - atMs;
                if (AttemptTimeout.runsOut(readTimeout, Duration.ofMillis(waitMs))) {
                    end = "stalled";
                    timedOutReading(index, readTimeout);
                    endNanos = clock.elapsedNanos();
                    throw new SocketTimeoutException("Read timed out: nothing arrived for " + waitMs + " ms after "
                            + next + (next == 1 ? " event" : " events") + ", past the read timeout of "
                            + readTimeout.toMillis() + " ms");
                }
                if (waitMs > 0) {
                    clock.elapse(Duration.ofMillis(waitMs));
                }
                atMs = e.atMs();
                arrivals.add(clock.elapsedNanos());
                if (next == replay.strikes() && replay.broken()) {
                    end = "stream_error".equals(fault) ? "error_event" : "malformed_event";
                    endNanos = clock.elapsedNanos();
                    brokeStream(index);
                } else {
                    text.append(StreamReplay.text(e));
                }
                next++;
                if (next == replay.events().size() && "reading".equals(end)
                        && replay.ending() == StreamReplay.Ending.COMPLETE) {
                    end = "done";
                }
                return chunks ? BedrockChunks.frame(e) : StreamReplay.wire(shape, e);
            }
        }
    }

    /** A streamed body: each event arrives at its offset on the virtual clock, the fault breaking it where it says. */
    private static final class StreamBody extends InputStream {

        private final StreamProgress stream;
        private final Duration readTimeout;
        private byte[] event = new byte[0];
        private int pos;
        private boolean ended;

        StreamBody(StreamProgress stream, Duration readTimeout) {
            this.stream = stream;
            this.readTimeout = readTimeout;
        }

        private boolean fill() throws IOException {
            while (pos >= event.length) {
                if (ended) {
                    return false;
                }
                byte[] next = stream.nextEvent(readTimeout);
                if (next == null) {
                    ended = true;
                    return false;
                }
                event = next;
                pos = 0;
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            return fill() ? event[pos++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, event.length - pos);
            System.arraycopy(event, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() {
            return event.length - pos;
        }
    }

    /** A body whose first byte comes {@code firstByte} after the request, on the virtual clock. */

    /**
     * A body whose first byte comes {@code firstByte} after the request, on the virtual clock; under
     * {@code {latency: recorded}} the rest comes when the drawn sample's total time is up.
     */
    private final class LateBody extends InputStream {

        private final HttpAnswer.Response response;
        private final Duration readTimeout;
        private ByteArrayInputStream bytes;
        /** The time from the first byte to the rest, still to come; zero once it came, or when it comes at once. */
        private Duration rest;
        private boolean firstByteRead;

        LateBody(HttpAnswer.Response response, Duration readTimeout) {
            this.response = response;
            this.readTimeout = readTimeout;
            this.rest = restOfBody(response);
        }

        /** After the first byte, waits for the rest of the body, or times out when it comes past the read timeout. */
        private void awaitRest() throws IOException {
            if (rest.isZero() || !firstByteRead) {
                return;
            }
            Duration late = rest;
            rest = Duration.ZERO;
            if (AttemptTimeout.runsOut(readTimeout, late)) {
                timedOutReading(response.index(), readTimeout);
                throw new SocketTimeoutException("Read timed out: the rest of the body came " + late.toMillis()
                        + " ms after its first byte, past the read timeout of " + readTimeout.toMillis() + " ms");
            }
            arrived(late);
        }

        private ByteArrayInputStream arrive() throws IOException {
            if (bytes == null) {
                Duration late = response.firstByte();
                if (AttemptTimeout.runsOut(readTimeout, late)) {
                    timedOutReading(response.index(), readTimeout);
                    throw new SocketTimeoutException("Read timed out: the first byte came " + late.toMillis()
                            + " ms after the request, past the read timeout of " + readTimeout.toMillis() + " ms");
                }
                arrived(late);
                bytes = new ByteArrayInputStream(response.body());
            }
            return bytes;
        }

        @Override
        public int read() throws IOException {
            ByteArrayInputStream in = arrive();
            awaitRest();
            int b = in.read();
            firstByteRead |= b >= 0;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            ByteArrayInputStream in = arrive();
            awaitRest();
            // While the rest is still to come, only the first byte is there to read.
            int n = in.read(b, off, rest.isZero() ? len : Math.min(len, 1));
            firstByteRead |= n > 0;
            return n;
        }

        @Override
        public int available() throws IOException {
            if (bytes == null) {
                return 0;
            }
            return rest.isZero() ? bytes.available() : firstByteRead ? 0 : Math.min(1, bytes.available());
        }
    }
}
