package dev.resilienceharness.scenario;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.cassette.ToolRecording;
import dev.resilienceharness.cassette.ToolRecordings;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpForwarder;
import dev.resilienceharness.http.StreamRecording;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.mcp.live.LiveMcpServers;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.tool.ToolBody;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Records through a team's own loop what no cassette answers yet: runs a scenario once with no faults, sends each
 * request the loop's SDK makes that no cassette answers to the live provider, and writes its answer as a cassette
 * labelled with its op; a {@code replay: recorded} tool no recording answers runs once, its result recorded; an MCP
 * request no session answers goes to the real server of {@code mcp_servers:}, its session written when the run ends
 * and answering the later scenarios. Behind {@code mvn resilience:record} for a loop whose calls come from an SDK.
 * Records one scenario at a time; a loop that throws, or a run that ends short, fails the scenario's recording.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class LoopRecorder {

    private final Rehearsal rehearsal;
    private final LoopThrows thrown;

    private LoopRecorder(Rehearsal rehearsal, LoopThrows thrown) {
        this.rehearsal = rehearsal;
        this.thrown = thrown;
    }

    /**
     * Prepares a recording of {@code config}'s scenarios through {@code loops}: every op's cassette is read as for a
     * rehearsal, except that an op whose calls come from the loop's SDK (no {@code requests:} entry, a team loop) may
     * have no cassette yet.
     *
     * @throws SetupException listing every op without a usable cassette that the loop cannot record
     */
    public static LoopRecorder prepare(HarnessConfig config, LoopFactory loops) throws SetupException {
        LoopThrows thrown = new LoopThrows();
        LoopFactory watched = loops == LoopFactory.builtin() ? loops : thrown.watch(loops);
        return new LoopRecorder(Rehearsal.prepare(config, watched, Integer.MAX_VALUE, RecordedAnswers.CAPACITY_BYTES,
                true), thrown);
    }

    public HarnessConfig config() {
        return rehearsal.config();
    }

    /**
     * Runs {@code scenario} once with no faults, sending every request no cassette answers the loop's SDK with to
     * {@code live}, and writes each answer as a cassette labelled with its op: volatile paths stripped, credentials
     * dropped and secrets masked by {@code redaction} before anything touches disk. A request that is answered
     * from a cassette is not sent. An execution of a {@code replay: recorded} tool that no recording answers runs the
     * tool's code once, and its result is written, redacted by {@code redaction} too, to the cassette folder's
     * {@code tools/}; one that a recording answers runs nothing.
     *
     * @return the run, whose calls are every request the loop made, and each request it recorded
     * @throws RecordingFailed when the provider cannot be reached, answers other than 200, a cassette or tool
     *                         recording cannot be written, or the loop throws or ends its run short (what was
     *                         recorded before stays)
     */
    public Recording recordMissing(Scenario scenario, HttpForwarder live, UnaryOperator<ObjectNode> redaction) {
        return recordMissing(scenario, live, redaction, null);
    }

    /** As {@link #recordMissing(Scenario, HttpForwarder, UnaryOperator)}, each cassette stamped with {@code recorded_at}. */
    public Recording recordMissing(Scenario scenario, HttpForwarder live, UnaryOperator<ObjectNode> redaction,
            Clock recordedAt) {
        return recordMissing(scenario, live, redaction, recordedAt, r -> { });
    }

    /**
     * As {@link #recordMissing(Scenario, HttpForwarder, UnaryOperator, Clock)}, telling {@code each} about each
     * request as soon as its cassette is written, so that what was recorded is told even when the loop then throws.
     */
    public Recording recordMissing(Scenario scenario, HttpForwarder live, UnaryOperator<ObjectNode> redaction,
            Clock recordedAt, Consumer<RecordedRequest> each) {
        return recordMissing(scenario, live, redaction, recordedAt, each, line -> { });
    }

    /**
     * As {@link #recordMissing(Scenario, HttpForwarder, UnaryOperator, Clock, Consumer)}, sending every request of the
     * loop's MCP clients that no MCP cassette answers to the real server of the yaml's {@code mcp_servers:}
     * ({@link LiveMcpServers}), whose sessions are written, redacted by {@code redaction}, to
     * {@code mcp/<server>/<scenario>.json} when the run ends. {@code mcpLog} is told each line the servers write on
     * their standard error and each session written.
     */
    public Recording recordMissing(Scenario scenario, HttpForwarder live, UnaryOperator<ObjectNode> redaction,
            Clock recordedAt, Consumer<RecordedRequest> each, Consumer<String> mcpLog) {
        CassetteStore store = new CassetteStore(rehearsal.config().cassettes(), rehearsal.volatilePaths(),
                Mode.RECORD_MISSING, redaction, recordedAt);
        AtomicReference<RecordingFailed> failed = new AtomicReference<>();
        List<RecordedRequest> written = new ArrayList<>();
        Map<String, Integer> rounds = new HashMap<>();
        Path base = rehearsal.config().file().toAbsolutePath().getParent();
        ToolRecordings tools = ToolRecordings.recording(rehearsal.config().cassettes(), redaction, recordedAt);
        List<RecordedTool> toolsWritten = new ArrayList<>();
        HttpRecorder recorder = new HttpRecorder() {
            @Override
            public OpExchange record(String op, ObjectNode request, HttpAttempt attempt) {
                try {
                    OpExchange recorded = recordOne(store, live, op, request, attempt);
                    RecordedRequest done;
                    synchronized (written) {
                        done = new RecordedRequest(op, rounds.merge(op, 1, Integer::sum), cassetteOf(base, recorded));
                        written.add(done);
                    }
                    each.accept(done);
                    return recorded;
                } catch (RecordingFailed e) {
                    // The SDK may wrap what its HTTP client throws; the first failure is what the goal reports.
                    failed.compareAndSet(null, e);
                    throw e;
                }
            }

            @Override
            public ToolRecording recordTool(String tool, JsonNode arguments, ToolBody body) throws Exception {
                String result = body.run();
                if (result == null) {
                    throw fail(RecordingFailed.ofTool(tool, "its code returned null instead of its result"));
                }
                ToolRecording recording;
                try {
                    recording = tools.write(tool, arguments, result);
                } catch (RecordingRedaction.Refused e) {
                    throw fail(RecordingFailed.ofTool(tool, e.getMessage()));
                } catch (IOException e) {
                    throw fail(RecordingFailed.ofTool(tool, "cannot write its recording: " + e.getMessage()));
                }
                synchronized (toolsWritten) {
                    toolsWritten.add(new RecordedTool(tool, base.relativize(recording.file().toAbsolutePath())
                            .toString().replace('\\', '/')));
                }
                return recording;
            }

            private RecordingFailed fail(RecordingFailed e) {
                failed.compareAndSet(null, e);
                return e;
            }
        };
        Scenario faultFree = new Scenario(scenario.name(), scenario.ops(), List.of(), scenario.expect(),
                scenario.policy(), scenario.line());
        thrown.clear();
        HarnessConfig config = rehearsal.config();
        LiveMcpServers mcp = config.mcpServers().isEmpty() ? null : new LiveMcpServers(config.cassettes(), base,
                config.mcpServers().values(), scenario.name(), redaction, mcpLog);
        RunTrace trace;
        List<String> sessions = new ArrayList<>();
        try {
            trace = rehearsal.run(faultFree, null, recorder, mcp);
        } finally {
            if (mcp != null) {
                // What the servers answered before a failure is written too, so that the next recording asks less.
                try {
                    mcp.close();
                } catch (IOException e) {
                    failed.compareAndSet(null, RecordingFailed.ofMcp(e.getMessage()));
                }
                mcp.written().forEach(f -> sessions.add(base.relativize(f.toAbsolutePath()).toString()
                        .replace('\\', '/')));
                if (!sessions.isEmpty()) {
                    // A later scenario of this recording is answered by these sessions, not by the server again.
                    rehearsal.mcpSessionsWritten();
                }
            }
        }
        if (failed.get() != null) {
            throw failed.get();
        }
        if (trace.failure() != null) {
            throw new RecordingFailed(opOf(trace, scenario), thrown.explain(trace.failure().message())
                    + keptLine(written.size()));
        }
        return new Recording(trace, written, toolsWritten, sessions);
    }

    /** The op the run was at when it ended: that of its last call, else the scenario's first. */
    private static String opOf(RunTrace trace, Scenario scenario) {
        if (!trace.calls().isEmpty()) {
            return trace.calls().get(trace.calls().size() - 1).op();
        }
        return scenario.ops().isEmpty() ? "(none)" : scenario.ops().get(0);
    }

    private static String keptLine(int written) {
        return switch (written) {
            case 0 -> "; nothing was recorded";
            case 1 -> "; the cassette recorded before it is kept";
            default -> "; the " + written + " cassettes recorded before it are kept";
        };
    }

    private static String cassetteOf(Path base, OpExchange recorded) {
        Path file = recorded.file();
        return file == null ? "(no file)" : base.relativize(file.toAbsolutePath()).toString().replace('\\', '/');
    }

    /**
     * What recording a scenario through its loop did.
     *
     * @param trace    the run: every request the loop made
     * @param requests those no cassette answered, which were sent and written, in the order they were sent
     * @param tools    the {@code replay: recorded} tool calls no recording answered, whose code ran once and whose
     *                 results were written, in the order they ran
     * @param mcpSessions the MCP session files written ({@code mcp_servers:}), relative to the yaml's folder
     */
    public record Recording(RunTrace trace, List<RecordedRequest> requests, List<RecordedTool> tools,
            List<String> mcpSessions) {

        public Recording {
            requests = List.copyOf(requests);
            tools = List.copyOf(tools);
            mcpSessions = List.copyOf(mcpSessions);
        }

        /** A recording that reached no MCP server. */
        public Recording(RunTrace trace, List<RecordedRequest> requests, List<RecordedTool> tools) {
            this(trace, requests, tools, List.of());
        }

        /** A recording that recorded no tool call. */
        public Recording(RunTrace trace, List<RecordedRequest> requests) {
            this(trace, requests, List.of());
        }

        /** How many requests were sent and written. */
        public int recorded() {
            return requests.size();
        }
    }

    /**
     * One request recorded through the loop.
     *
     * @param op       the op it was made for
     * @param round    its number among the op's requests this recording sent, from 1
     * @param cassette the cassette written, relative to the yaml's folder
     */
    public record RecordedRequest(String op, int round, String cassette) {

        /** One line for a log: {@code plan round 2: recorded cassettes/ab12cd34ef56ab78.json}. */
        public String line() {
            return op + " round " + round + ": recorded " + cassette;
        }
    }

    /**
     * One {@code replay: recorded} tool call recorded through the loop.
     *
     * @param tool      the tool's name
     * @param recording the recording written, relative to the yaml's folder
     */
    public record RecordedTool(String tool, String recording) {

        /** One line for a log: {@code tool refund: recorded cassettes/tools/ab12cd34ef56ab78.json}. */
        public String line() {
            return "tool " + tool + ": recorded " + recording;
        }
    }

    private OpExchange recordOne(CassetteStore store, HttpForwarder live, String op, ObjectNode request,
            HttpAttempt attempt) {
        HttpAnswer.Response answer;
        try {
            answer = live.send(attempt);
        } catch (IOException e) {
            throw new RecordingFailed(op, e.getMessage());
        }
        if (answer.status() != 200) {
            throw new RecordingFailed(op, "the provider answered " + answer.status() + ": "
                    + abbreviate(answer.text()));
        }
        if (answer.events() != null) {
            return recordStream(store, op, request, answer, ApiShape.forPath("/" + attempt.path()));
        }
        JsonNode response;
        try {
            response = Json.readTree(answer.body());
        } catch (RuntimeException e) {
            throw new RecordingFailed(op, "the answer is not JSON: " + abbreviate(answer.text()));
        }
        try {
            Cassette c = store.write(request, response, new Timing(null, answer.firstByte().toMillis()), op);
            return rehearsal.lookup().recorded(op, c.request(), c);
        } catch (RecordingRedaction.Refused e) {
            throw new RecordingFailed(op, e.getMessage());
        } catch (IOException e) {
            throw new RecordingFailed(op, "cannot write its cassette: " + e.getMessage());
        }
    }

    /** A streamed answer: the assembled message as {@code response}, every event with its offset as {@code stream}. */
    private OpExchange recordStream(CassetteStore store, String op, ObjectNode request, HttpAnswer.Response answer,
            ApiShape shape) {
        StreamRecording.Captured captured;
        try {
            captured = StreamRecording.assemble(answer.events(), shape);
        } catch (StreamRecording.Broken e) {
            throw new RecordingFailed(op, "its event stream is broken: " + abbreviate(e.getMessage()));
        }
        try {
            Cassette c = store.write(request, captured.completion(), new Timing(captured.firstTokenMs(),
                    captured.totalMs()), op, captured.stream());
            return rehearsal.lookup().recorded(op, c.request(), c);
        } catch (RecordingRedaction.Refused e) {
            throw new RecordingFailed(op, e.getMessage());
        } catch (IOException e) {
            throw new RecordingFailed(op, "cannot write its cassette: " + e.getMessage());
        }
    }

    private static String abbreviate(String text) {
        String one = text.replaceAll("\\s+", " ").trim();
        return one.length() > 200 ? one.substring(0, 200) + "…" : one;
    }

    /** Recording through the loop's SDK failed for one op; the message says why. */
    public static final class RecordingFailed extends RuntimeException {

        private static final long serialVersionUID = 1L;

        RecordingFailed(String op, String why) {
            super("cannot record op '" + op + "': " + why);
        }

        private RecordingFailed(String message) {
            super(message);
        }

        /** Writing the MCP sessions recorded from the real servers failed; the message names each. */
        static RecordingFailed ofMcp(String why) {
            return new RecordingFailed("cannot record MCP sessions: " + why);
        }

        /** Recording the result of a {@code replay: recorded} tool failed; nothing was written for it. */
        static RecordingFailed ofTool(String tool, String why) {
            return new RecordingFailed("cannot record tool '" + tool + "': " + why);
        }
    }

    /** What the loop threw in the run being recorded, and where in the loop's own code. */
    private static final class LoopThrows {

        private final AtomicReference<Throwable> thrown = new AtomicReference<>();
        private final AtomicReference<Class<?>> loopClass = new AtomicReference<>();

        /** {@code loops}, each loop's throw kept before the run sees it. */
        LoopFactory watch(LoopFactory loops) {
            return () -> {
                AgentLoop loop = loops.create();
                loopClass.set(loop.getClass());
                return run -> {
                    try {
                        return loop.run(run);
                    } catch (RuntimeException | Error e) {
                        thrown.compareAndSet(null, e);
                        throw e;
                    }
                };
            };
        }

        void clear() {
            thrown.set(null);
        }

        /** The loop's exception with its first frame in the loop's package, else the run's own account. */
        String explain(String runEnded) {
            Throwable e = thrown.get();
            if (e == null) {
                return "the run ended short: " + runEnded;
            }
            String frame = teamFrame(e, loopClass.get());
            return "the loop threw " + e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + (frame == null ? "" : " at " + frame);
        }

        /**
         * The first frame of {@code e} (or of a cause) in the package of {@code loop} or below it: the team's code,
         * past whatever SDK and harness frames lie above it; else the first frame of all.
         */
        private static String teamFrame(Throwable e, Class<?> loop) {
            String pkg = loop == null ? null : loop.getPackageName() + ".";
            for (Throwable t = e; t != null && pkg != null; t = t.getCause() == t ? null : t.getCause()) {
                for (StackTraceElement f : t.getStackTrace()) {
                    if (f.getClassName().startsWith(pkg) && !f.getClassName().startsWith(
                            LoopRecorder.class.getPackageName() + ".")) {
                        return frame(f);
                    }
                }
            }
            StackTraceElement[] top = e.getStackTrace();
            return top.length == 0 ? null : frame(top[0]);
        }

        /** As a stack trace prints it, without the class loader or module a JDK may put before it. */
        private static String frame(StackTraceElement f) {
            return f.getClassName() + "." + f.getMethodName() + "(" + (f.getFileName() == null ? "Unknown Source"
                    : f.getFileName() + (f.getLineNumber() >= 0 ? ":" + f.getLineNumber() : "")) + ")";
        }
    }
}
