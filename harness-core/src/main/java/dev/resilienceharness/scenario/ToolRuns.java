package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.ToolRecording;
import dev.resilienceharness.cassette.ToolRecordingMiss;
import dev.resilienceharness.cassette.ToolRecordings;
import dev.resilienceharness.json.CanonicalJson;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.tool.BrokenResult;
import dev.resilienceharness.tool.ToolBody;
import dev.resilienceharness.tool.ToolCall;
import dev.resilienceharness.tool.ToolDeclaration;
import dev.resilienceharness.tool.ToolFailure;
import dev.resilienceharness.tool.ToolFault;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.ToolRecord;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The tool executions of one scenario run (docs tools.md): each meets the next entry of its tool's
 * {@code tool_faults:} list, moves the virtual clock as its fault says, runs the team's code (or not, as its fault
 * says; a {@code replay: recorded} tool's result comes from its recording instead, docs cassettes.md), and is recorded
 * for the invariants and the timeline. Guarded by the run's {@link ScenarioTransport}; the
 * tool's own code runs outside that lock, as the loop's own code does.
 */
final class ToolRuns {

    private final ScenarioTransport transport;
    private final Function<String, ToolDeclaration> declarations;
    private final Map<String, List<ToolFault>> faults;
    private final Map<String, Integer> next = new HashMap<>();
    private final List<ToolRecord> records = new ArrayList<>();
    private final ToolRecordings recordings;
    private final HttpRecorder recorder;
    private final Map<String, Object> recordingLocks = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param recordings answer the executions of {@code replay: recorded} tools
     * @param recorder   records what no recording answers by running the tool's code once, or {@code null} to replay
     *                   only
     */
    ToolRuns(ScenarioTransport transport, Function<String, ToolDeclaration> declarations,
            Map<String, List<ToolFault>> faults, ToolRecordings recordings, HttpRecorder recorder) {
        this.transport = transport;
        this.declarations = declarations;
        this.faults = faults;
        this.recordings = recordings;
        this.recorder = recorder;
    }

    /** Every tool execution so far, in order. */
    List<ToolRecord> records() {
        synchronized (transport) {
            return List.copyOf(records);
        }
    }

    /**
     * One execution, as {@code LoopRun.tool} and the adapters' hooks make it. A framework's hook also sees the tools
     * it reaches through an MCP client (Spring AI's MCP tool callbacks, langchain4j's MCP tool provider): such an
     * execution is the server's {@code tools/call}, which the MCP runtime fails and records (docs mcp.md). A tool
     * declared with {@code server:} is left to it outright; any other whose body turns out to call an MCP tool of the
     * same name on this thread is recorded once, as that call.
     */
    String execute(ToolCall call, ToolBody body) throws Exception {
        Open open = new Open(call.name(), call.layer(), OPEN.get());
        OPEN.set(open);
        try {
            if (declarations.apply(call.name()).mcp()) {
                return body.run();
            }
            Start start;
            synchronized (transport) {
                start = start(call);
            }
            return execute(start, body);
        } finally {
            OPEN.set(open.outer);
        }
    }

    /** A tool execution under way on this thread, and whether its body called the MCP tool of its name. */
    private static final class Open {
        final String name;
        final String layer;
        final Open outer;
        boolean servedByMcp;

        Open(String name, String layer, Open outer) {
            this.name = name;
            this.layer = layer;
            this.outer = outer;
        }
    }

    /**
     * Who runs the tool {@code name} on this thread through the harness's tool hook ({@code the loop}, {@code Spring
     * AI}, ...), or {@code null}: the code that called an MCP client for it.
     */
    static String runBy(String name) {
        Open open = OPEN.get();
        return open != null && open.name.equals(name) ? open.layer : null;
    }

    private static final ThreadLocal<Open> OPEN = new ThreadLocal<>();

    /**
     * An MCP {@code tools/call} of {@code name} is being recorded: when a local execution of that name is under way on
     * this thread, it is this call, and is not recorded again.
     */
    static void calledOverMcp(String name) {
        Open open = OPEN.get();
        if (open != null && open.name.equals(name)) {
            open.servedByMcp = true;
        }
    }

    private String execute(Start start, ToolBody body) throws Exception {
        ToolCall call = start.call;
        ToolFault fault = start.fault;
        Duration timeout = start.declaration.timeout();
        switch (fault.kind()) {
            case ERROR -> {
                end(start, ToolRecord.Result.ERROR, false, false);
                throw new ToolFailure("tool '" + call.name() + "' failed (injected error fault on its execution "
                        + start.ordinal + ")");
            }
            case TIMEOUT -> {
                elapse(timeout);
                end(start, ToolRecord.Result.TIMEOUT, false, false);
                throw timedOut(call, timeout, "timeout");
            }
            case SLOW -> {
                if (fault.delay().compareTo(timeout) > 0) {
                    elapse(timeout);
                    end(start, ToolRecord.Result.TIMEOUT, false, false);
                    throw timedOut(call, timeout, "slow " + dev.resilienceharness.config.Durations.format(fault.delay()));
                }
                elapse(fault.delay());
            }
            default -> {
            }
        }
        String result;
        boolean replayed = false;
        try {
            if (start.declaration.replay() == ToolDeclaration.Replay.RECORDED && recorder == null) {
                result = recorded(start).result();
                replayed = true;
            } else if (start.declaration.replay() == ToolDeclaration.Replay.RECORDED) {
                // Executions of one call at once (an SDK may run a turn's tool calls in parallel) record it once.
                synchronized (recordingLocks.computeIfAbsent(start.fingerprint, fp -> new Object())) {
                    ToolRecording recording = recorded(start);
                    replayed = recording != null;
                    result = replayed ? recording.result() : recorder.recordTool(call.name(), start.parsedArguments,
                            body).result();
                }
            } else {
                result = body.run();
            }
        } catch (Exception | Error e) {
            end(start, ToolRecord.Result.ERROR, false, false);
            throw e;
        }
        if (fault.kind() == ToolFault.Kind.TIMEOUT_AFTER_COMMIT) {
            elapse(timeout);
            end(start, ToolRecord.Result.TIMEOUT, true, replayed);
            throw timedOut(call, timeout, "timeout_after_commit: the tool had done its work");
        }
        if (fault.kind() == ToolFault.Kind.INVALID_RESULT) {
            JsonNode broken = BrokenResult.of(start.declaration.outputSchema(), result);
            end(start, ToolRecord.Result.INVALID_RESULT, true, replayed);
            return Json.compact(broken);
        }
        end(start, ToolRecord.Result.OK, true, replayed);
        return result;
    }

    /**
     * The recording that answers a {@code replay: recorded} tool's execution; {@code null} when there is none and this
     * run records (the tool's code then runs once, and its result is recorded). In a rehearsal a missing or unusable
     * recording is a miss, which fails the run even if the loop catches it: the team's code never runs there.
     */
    private ToolRecording recorded(Start start) {
        String name = start.call.name();
        ToolRecording recording;
        try {
            recording = recordings == null ? null : recordings.get(start.fingerprint);
        } catch (CassetteException e) {
            throw missed(ToolRecordingMiss.unusable(name, start.fingerprint, e));
        }
        if (recording == null && recorder == null) {
            throw missed(ToolRecordingMiss.missing(name, start.fingerprint, recordings == null ? null
                    : recordings.nearest(name, start.parsedArguments)));
        }
        return recording;
    }

    private ToolRecordingMiss missed(ToolRecordingMiss miss) {
        synchronized (transport) {
            transport.missed(miss);
        }
        return miss;
    }

    private void elapse(Duration d) {
        synchronized (transport) {
            transport.elapse(d);
        }
    }

    private static SocketTimeoutException timedOut(ToolCall call, Duration timeout, String fault) {
        return new SocketTimeoutException("tool '" + call.name() + "' timed out after "
                + dev.resilienceharness.config.Durations.format(timeout) + " (injected " + fault + ")");
    }

    /** What is known when an execution starts. */
    private record Start(ToolCall call, ToolDeclaration declaration, ToolFault fault, int ordinal, String op,
            int round, String arguments, JsonNode parsedArguments, String fingerprint, String key, long atNanos,
            int incarnation, int afterCall) {
    }

    private Start start(ToolCall call) {
        transport.toolStarting();
        ToolDeclaration declaration = declarations.apply(call.name());
        int ordinal = next.merge(call.name(), 1, Integer::sum);
        List<ToolFault> list = faults.getOrDefault(call.name(), List.of());
        ToolFault fault = ordinal <= list.size() ? list.get(ordinal - 1) : ToolFault.NONE;
        JsonNode parsed = Json.readTreeOrNull(call.arguments());
        String arguments = parsed == null ? call.arguments() : CanonicalJson.write(parsed);
        // Arguments that are not JSON are fingerprinted, and recorded, as the text they are.
        JsonNode logicalArguments = parsed != null ? parsed : JsonNodeFactory.instance.stringNode(call.arguments());
        String op = transport.currentOp();
        int incarnation = transport.incarnation();
        int[] roundAndAfter = roundAndAfterCall(transport, op, incarnation);
        return new Start(call, declaration, fault, ordinal, op, roundAndAfter[0], arguments, logicalArguments,
                ToolRecording.fingerprint(call.name(), logicalArguments), declaration.keyOf(parsed,
                call.idempotencyKey()), transport.elapsedNanos(), incarnation, roundAndAfter[1]);
    }

    /**
     * For a tool execution now: the model round of {@code op} that asked for it (how many of its calls in this process
     * were answered) and the index of the op's last call in this process, or -1. Under the transport's lock.
     */
    static int[] roundAndAfterCall(ScenarioTransport transport, String op, int incarnation) {
        int round = 0;
        int afterCall = -1;
        for (CallRecord c : transport.callsSoFar()) {
            if (c.op().equals(op) && c.incarnation() == incarnation) {
                afterCall = c.index();
                if (c.result() == CallRecord.Result.OK) {
                    round++;
                }
            }
        }
        return new int[] {round, afterCall};
    }

    /** Adds the record {@code make} builds for the next index (an MCP tool call's), and returns that index. */
    int add(java.util.function.IntFunction<ToolRecord> make) {
        synchronized (transport) {
            int index = records.size();
            records.add(make.apply(index));
            return index;
        }
    }

    /** Notes that the loop was handed {@code text} as the result of the execution {@code index}. */
    void answeredAsText(int index, String text) {
        synchronized (transport) {
            records.set(index, records.get(index).answeredAsText(text));
        }
    }

    private void end(Start s, ToolRecord.Result result, boolean committed, boolean replayed) {
        Open open = OPEN.get();
        if (open != null && open.servedByMcp) {
            return;                                              // the server's tools/call stands for it
        }
        synchronized (transport) {
            records.add(new ToolRecord(records.size(), s.op, s.round, s.call.name(), s.arguments, s.fingerprint, s.key,
                    s.fault.id(), result, committed, s.call.layer(), s.atNanos, transport.elapsedNanos(),
                    s.incarnation, s.afterCall, replayed));
        }
    }

}
