package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.ToolRecording;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.CanonicalJson;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.mcp.McpCassetteMiss;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpExchange;
import dev.resilienceharness.mcp.McpLive;
import dev.resilienceharness.mcp.McpNotification;
import dev.resilienceharness.mcp.McpOutcome;
import dev.resilienceharness.mcp.McpReplay;
import dev.resilienceharness.mcp.McpServer;
import dev.resilienceharness.mcp.McpSession;
import dev.resilienceharness.mcp.McpTransportKind;
import dev.resilienceharness.tool.BrokenResult;
import dev.resilienceharness.tool.ToolDeclaration;
import dev.resilienceharness.tool.ToolFault;
import dev.resilienceharness.trace.McpRecord;
import dev.resilienceharness.trace.ToolRecord;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The MCP servers of one scenario run (docs mcp.md), what {@code LoopRun.mcp(server, layer)} returns: each request a
 * client sends is answered from the server's MCP cassettes ({@link McpReplay}), meets the next entry of the server's
 * {@code mcp_faults:} and, for a {@code tools/call} the session lets through, of the tool's {@code tool_faults:}, moves
 * the virtual clock by the recorded answer's offset (provider time, as a tool's time is) and is recorded in the trace:
 * every message as an {@link McpRecord}, every {@code tools/call} also as a {@link ToolRecord}. Each server keeps its
 * session's state: a lost session (expired, exited, or ended by a restart of the process) answers every request but
 * {@code initialize} alike until the client initializes again.
 *
 * <p>Guarded by the run's {@link ScenarioTransport}; one server's requests are answered one at a time.
 */
final class McpRuns {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String TOOLS_CALL = "tools/call";
    private static final String INITIALIZE = "initialize";

    private final ScenarioTransport transport;
    private final HarnessConfig config;
    private final Scenario scenario;
    private final McpCassettes cassettes;
    private final McpLive live;
    private final Map<String, Server> servers = new HashMap<>();
    private final List<McpRecord> records = new ArrayList<>();
    /** By MCP record index: the JSON-RPC id it was sent with, and the index of its tool record or -1. */
    private final List<String> ids = new ArrayList<>();
    private final List<Integer> toolIndexes = new ArrayList<>();

    /**
     * @param live asks the real server what no cassette answers in a recording run; {@code null} to replay only
     */
    McpRuns(ScenarioTransport transport, HarnessConfig config, Scenario scenario, McpCassettes cassettes,
            McpLive live) {
        this.transport = transport;
        this.config = config;
        this.scenario = scenario;
        this.cassettes = cassettes;
        this.live = live;
    }

    /** Every MCP message of the run so far, in order. Under the transport's lock. */
    List<McpRecord> records() {
        return List.copyOf(records);
    }

    /** The endpoint of {@code server} for the client {@code layer}. */
    McpEndpoint endpoint(String server, String layer) {
        McpServer declared = config == null ? null : config.mcpServers().get(server);
        if (declared == null) {
            throw new IllegalArgumentException(McpRunMessages.undeclared(server, config == null ? List.of()
                    : config.mcpServers().keySet()));
        }
        Server state;
        synchronized (transport) {
            state = servers.computeIfAbsent(server, s -> new Server(declared));
        }
        return new Endpoint(state, layer);
    }

    /** Where a session stands. */
    private enum Session {
        /** No session was lost: requests are answered. */
        OPEN,
        /** The server forgot the session ({@code session_expired}): 404 until {@code initialize}. */
        EXPIRED,
        /** The server went away ({@code server_exit}): gone until {@code initialize}. */
        GONE
    }

    /** One server's state in this run. */
    private final class Server {
        final McpServer declared;
        McpReplay replay;
        Session session = Session.OPEN;
        /** The process incarnation that initialized the open session, or -1 before any {@code initialize}. */
        int initializedBy = -1;
        int requests;
        final Map<String, Integer> toolCalls = new HashMap<>();
        boolean wentLive;

        Server(McpServer declared) {
            this.declared = declared;
        }

        String name() {
            return declared.name();
        }

        McpReplay replay() {
            if (replay == null) {
                List<McpSession> sessions;
                try {
                    sessions = cassettes.sessions(name());
                } catch (CassetteException e) {
                    throw missed(new IllegalStateException(McpRunMessages.cassetteUnusable(name(), e.getMessage())));
                }
                replay = new McpReplay(name(), sessions);
            }
            return replay;
        }
    }

    /** What is known when a request arrives. */
    private record Start(String op, int round, int afterCall, int incarnation, long atNanos) {
    }

    /** How a request ended, for the trace. */
    private record End(McpRecord.Outcome outcome, boolean committed, ToolRecord.Result toolResult) {
    }

    private final class Endpoint implements McpEndpoint {
        private final Server server;
        private final String layer;

        Endpoint(Server server, String layer) {
            this.server = server;
            this.layer = layer;
        }

        @Override
        public String server() {
            return server.name();
        }

        @Override
        public McpOutcome send(String message, Duration clientTimeout) {
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(clientTimeout, "clientTimeout");
            JsonNode msg = Json.readTreeOrNull(message);
            if (!(msg instanceof ObjectNode request)) {
                throw new IllegalArgumentException(McpRunMessages.notJsonRpc(server.name()));
            }
            JsonNode method = request.get("method");
            JsonNode id = request.get("id");
            if (method == null || !method.isString()) {
                if (id != null && (request.has("result") || request.has("error"))) {
                    return new McpOutcome.Reply(List.of()); // the client's answer to a server request
                }
                throw new IllegalArgumentException(McpRunMessages.notJsonRpc(server.name()));
            }
            synchronized (server) {
                if (id == null || id.isNull()) {
                    return notice(method.asString(), request.get("params"));
                }
                return request(request, method.asString(), id, clientTimeout);
            }
        }

        private McpOutcome notice(String method, JsonNode params) {
            Start start = start();
            if (live != null && server.wentLive) {
                try {
                    live.notice(server.name(), method, params);
                } catch (IOException e) {
                    throw missed(new IllegalStateException(McpRunMessages.liveFailed(server.name(), method,
                            String.valueOf(e.getMessage())), e));
                }
            }
            record(start, method, null, null, null, ToolFault.NONE,
                    new End(McpRecord.Outcome.NOTICE, false, null), null);
            return new McpOutcome.Reply(List.of());
        }

        private McpOutcome request(ObjectNode request, String method, JsonNode id, Duration timeout) {
            Start start = start();
            JsonNode params = request.get("params");
            String tool = null;
            JsonNode arguments = null;
            if (TOOLS_CALL.equals(method) && params != null && params.path("name").isString()) {
                tool = params.get("name").asString();
                arguments = params.get("arguments");
            }
            ToolCallContext call = tool == null ? null : new ToolCallContext(tool, arguments);
            if (live != null && INITIALIZE.equals(method)) {
                // A live session opened later for what no cassette answers starts as this client's did.
                live.clientInitialize(server.name(), params);
            }
            // A process restart ends the sessions its clients had opened: their server is not theirs any more.
            if (server.session == Session.OPEN && server.initializedBy >= 0
                    && server.initializedBy != start.incarnation() && !INITIALIZE.equals(method)) {
                server.session = server.declared.transport() == McpTransportKind.STDIO ? Session.GONE
                        : Session.EXPIRED;
            }
            if (server.session != Session.OPEN && !INITIALIZE.equals(method)) {
                McpOutcome lost = server.session == Session.EXPIRED ? new McpOutcome.SessionNotFound()
                        : new McpOutcome.ServerGone(server.initializedBy != start.incarnation()
                                && server.declared.transport() == McpTransportKind.STDIO
                                ? McpRunMessages.endedWithProcess(server.name())
                                : McpRunMessages.stillGone(server.name()));
                McpRecord.Outcome outcome = server.session == Session.EXPIRED ? McpRecord.Outcome.SESSION_NOT_FOUND
                        : McpRecord.Outcome.SERVER_GONE;
                record(start, method, id, call, params, ToolFault.NONE,
                        new End(outcome, false, ToolRecord.Result.ERROR), null);
                return lost;
            }
            ToolFault fault = nextFault(call);
            McpOutcome outcome = faulted(start, request, method, id, params, call, fault, timeout);
            if (INITIALIZE.equals(method) && outcome instanceof McpOutcome.Reply) {
                server.session = Session.OPEN;
                server.initializedBy = start.incarnation();
            }
            return outcome;
        }

        /** The session's next fault; for a {@code tools/call} it lets through, the tool's next. */
        private ToolFault nextFault(ToolCallContext call) {
            List<ToolFault> session = scenario.mcpFaults(server.name());
            int n = server.requests++;
            ToolFault fault = n < session.size() ? session.get(n) : ToolFault.NONE;
            if (fault.kind() != ToolFault.Kind.NONE || call == null) {
                return fault;
            }
            int ordinal = server.toolCalls.merge(call.name, 1, Integer::sum);
            call.ordinal = ordinal;
            List<ToolFault> tool = scenario.toolFaults(call.name);
            return ordinal <= tool.size() ? tool.get(ordinal - 1) : ToolFault.NONE;
        }

        private McpOutcome faulted(Start start, ObjectNode request, String method, JsonNode id, JsonNode params,
                ToolCallContext call, ToolFault fault, Duration timeout) {
            switch (fault.kind()) {
                case ERROR -> {
                    ObjectNode result = NODES.objectNode();
                    result.putArray("content").addObject().put("type", "text")
                            .put("text", McpRunMessages.toolError(call == null ? method : call.name,
                                    call == null ? server.requests : call.ordinal));
                    result.put("isError", true);
                    record(start, method, id, call, params, fault,
                            new End(McpRecord.Outcome.TOOL_ERROR, false, ToolRecord.Result.ERROR), null);
                    return reply(List.of(), response(id, result, null));
                }
                case PROTOCOL_ERROR -> {
                    ObjectNode error = NODES.objectNode();
                    error.put("code", fault.code());
                    error.put("message", McpRunMessages.protocolError(method, fault.code()));
                    record(start, method, id, call, params, fault,
                            new End(McpRecord.Outcome.PROTOCOL_ERROR, false, ToolRecord.Result.ERROR), null);
                    return reply(List.of(), response(id, null, error));
                }
                case RATE_LIMITED -> {
                    record(start, method, id, call, params, fault,
                            new End(McpRecord.Outcome.THROTTLED, false, ToolRecord.Result.ERROR), null);
                    return new McpOutcome.Throttled(fault.delay());
                }
                case TIMEOUT, HANG -> {
                    elapse(timeout);
                    record(start, method, id, call, params, fault,
                            new End(McpRecord.Outcome.NO_REPLY, false, ToolRecord.Result.TIMEOUT), null);
                    return new McpOutcome.NoReply(timeout, List.of());
                }
                case SLOW -> {
                    List<String> progress = progress(params, fault);
                    if (fault.delay().compareTo(timeout) > 0) {
                        elapse(timeout);
                        record(start, method, id, call, params, fault,
                                new End(McpRecord.Outcome.NO_REPLY, false, ToolRecord.Result.TIMEOUT), null);
                        return new McpOutcome.NoReply(timeout, before(progress, fault, timeout));
                    }
                    elapse(fault.delay());
                    return answered(start, request, method, id, params, call, fault,
                            timeout.minus(fault.delay()), progress);
                }
                default -> {
                    return answered(start, request, method, id, params, call, fault, timeout, List.of());
                }
            }
        }

        /**
         * A request the server answers from its recording: the recorded notifications and answer, after the recorded
         * offset, unless {@code fault} loses the answer after the server ran the request.
         */
        private McpOutcome answered(Start start, ObjectNode request, String method, JsonNode id, JsonNode params,
                ToolCallContext call, ToolFault fault, Duration left, List<String> before) {
            McpExchange.Call recorded = recorded(request, method, params, left);
            Duration took = Duration.ofMillis(recorded.responseOffsetMs());
            // What the client waits in all: a slow answer has already taken its delay of it.
            Duration timeout = fault.kind() == ToolFault.Kind.SLOW ? left.plus(fault.delay()) : left;
            if (took.compareTo(left) > 0) {
                // Recorded slower than the client waits: it gives up first, and the server's work is lost to it.
                elapse(left);
                List<String> sent = new ArrayList<>(before);
                for (McpNotification n : recorded.notifications()) {
                    if (n.offsetMs() < left.toMillis()) {
                        sent.add(notification(n.method(), n.params()));
                    }
                }
                record(start, method, id, call, params, fault,
                        new End(McpRecord.Outcome.NO_REPLY, false, ToolRecord.Result.TIMEOUT), null);
                return new McpOutcome.NoReply(timeout, sent);
            }
            elapse(took);
            boolean toolOk = recorded.result() != null && !recorded.result().path("isError").asBoolean(false);
            switch (fault.kind()) {
                case TIMEOUT_AFTER_COMMIT -> {
                    elapse(left.minus(took));
                    record(start, method, id, call, params, fault,
                            new End(McpRecord.Outcome.NO_REPLY, toolOk, ToolRecord.Result.TIMEOUT), null);
                    return new McpOutcome.NoReply(timeout, List.of());
                }
                case SESSION_EXPIRED -> {
                    server.session = Session.EXPIRED;
                    record(start, method, id, call, params, fault,
                            new End(McpRecord.Outcome.SESSION_NOT_FOUND, toolOk, ToolRecord.Result.ERROR), null);
                    return new McpOutcome.SessionNotFound();
                }
                case SERVER_EXIT -> {
                    server.session = Session.GONE;
                    record(start, method, id, call, params, fault,
                            new End(McpRecord.Outcome.SERVER_GONE, toolOk, ToolRecord.Result.ERROR), null);
                    return new McpOutcome.ServerGone(McpRunMessages.exited(server.name(), method));
                }
                default -> {
                }
            }
            List<String> messages = new ArrayList<>(before);
            if (fault.kind() == ToolFault.Kind.TOOLS_CHANGED) {
                messages.add(notification("notifications/tools/list_changed", null));
            }
            for (McpNotification n : recorded.notifications()) {
                messages.add(notification(n.method(), n.params()));
            }
            JsonNode result = recorded.result();
            ToolRecord.Result toolResult = toolOk ? ToolRecord.Result.OK : ToolRecord.Result.ERROR;
            if (fault.kind() == ToolFault.Kind.INVALID_RESULT && result != null && call != null) {
                result = broken(call, result);
                toolResult = ToolRecord.Result.INVALID_RESULT;
            }
            McpRecord.Outcome outcome = recorded.error() != null ? McpRecord.Outcome.PROTOCOL_ERROR
                    : call != null && !toolOk ? McpRecord.Outcome.TOOL_ERROR : McpRecord.Outcome.RESULT;
            ObjectNode error = null;
            if (recorded.error() != null) {
                error = NODES.objectNode();
                error.put("code", recorded.error().code());
                error.put("message", recorded.error().message());
                if (recorded.error().data() != null) {
                    error.set("data", recorded.error().data().deepCopy());
                }
            }
            record(start, method, id, call, params, fault, new End(outcome, toolOk, toolResult), null);
            return reply(messages, response(id, result == null ? null : result.deepCopy(), error));
        }

        /** The recorded call that answers the request; in a recording run, what the live server answers. */
        private McpExchange.Call recorded(ObjectNode request, String method, JsonNode params, Duration timeout) {
            McpReplay replay = server.replay();
            try {
                return replay.answer(request).call();
            } catch (McpCassetteMiss miss) {
                if (live == null) {
                    throw missed(miss);
                }
            }
            McpExchange.Call call;
            try {
                call = live.call(server.name(), method, params, timeout);
            } catch (IOException e) {
                throw missed(new IllegalStateException(McpRunMessages.liveFailed(server.name(), method,
                        String.valueOf(e.getMessage())), e));
            }
            server.wentLive = true;
            replay.add(call, "recorded in this run");
            return replay.answer(request).call();
        }

        /** The recorded result with its {@code structuredContent} broken against the tool's output schema. */
        private JsonNode broken(ToolCallContext call, JsonNode result) {
            JsonNode schema = config.tool(call.name).outputSchema();
            if (schema == null) {
                schema = recordedOutputSchema(call.name);
            }
            JsonNode structured = result.get("structuredContent");
            JsonNode broken = schema == null ? null : BrokenResult.of(schema, structured == null ? null
                    : Json.compact(structured));
            if (broken == null) {
                throw missed(new IllegalStateException(McpRunMessages.noSchemaToBreak(call.name, server.name())));
            }
            ObjectNode copy = ((ObjectNode) result).deepCopy();
            copy.set("structuredContent", broken);
            return copy;
        }

        /** The {@code outputSchema} the server gave {@code tool} in its last recorded {@code tools/list}. */
        private JsonNode recordedOutputSchema(String tool) {
            List<McpSession> sessions;
            try {
                sessions = cassettes.sessions(server.name());
            } catch (CassetteException e) {
                return null;
            }
            JsonNode found = null;
            for (McpSession session : sessions) {
                for (McpExchange exchange : session.exchanges()) {
                    if (exchange instanceof McpExchange.Call c && "tools/list".equals(c.method()) && c.result() != null) {
                        for (JsonNode t : c.result().path("tools")) {
                            if (tool.equals(t.path("name").asString(null)) && t.path("outputSchema").isObject()) {
                                found = t.get("outputSchema");
                            }
                        }
                    }
                }
            }
            return found;
        }

        @Override
        public void failureAnsweredAsText(String request, String text) {
            Objects.requireNonNull(text, "text");
            JsonNode msg = Json.readTreeOrNull(request);
            JsonNode id = msg == null ? null : msg.get("id");
            String method = msg == null ? null : msg.path("method").asString(null);
            if (id == null || method == null) {
                throw new IllegalArgumentException(McpRunMessages.notJsonRpc(server.name()));
            }
            String idText = Json.compact(id);
            synchronized (transport) {
                for (int i = records.size() - 1; i >= 0; i--) {
                    McpRecord r = records.get(i);
                    if (r.server().equals(server.name()) && r.method().equals(method) && idText.equals(ids.get(i))) {
                        records.set(i, r.answeredAsText(text));
                        if (toolIndexes.get(i) >= 0) {
                            transport.toolRuns().answeredAsText(toolIndexes.get(i), text);
                        }
                        return;
                    }
                }
            }
            throw new IllegalArgumentException(McpRunMessages.notSent(server.name(), method + " " + idText));
        }

        @Override
        public void clientWaited(String request, Duration waited) {
            Objects.requireNonNull(waited, "waited");
            if (waited.isNegative()) {
                throw new IllegalArgumentException(McpRunMessages.negativeWait(server.name(), waited));
            }
            JsonNode msg = Json.readTreeOrNull(request);
            JsonNode id = msg == null ? null : msg.get("id");
            String method = msg == null ? null : msg.path("method").asString(null);
            if (id == null || method == null) {
                throw new IllegalArgumentException(McpRunMessages.notJsonRpc(server.name()));
            }
            String idText = Json.compact(id);
            synchronized (transport) {
                boolean sent = false;
                for (int i = records.size() - 1; i >= 0 && !sent; i--) {
                    McpRecord r = records.get(i);
                    sent = r.server().equals(server.name()) && r.method().equals(method) && idText.equals(ids.get(i));
                }
                if (!sent) {
                    throw new IllegalArgumentException(McpRunMessages.notSent(server.name(), method + " " + idText));
                }
                // The client's own waiting, as a backoff is: the loop's time, judged by max_total_wait.
                if (!waited.isZero()) {
                    transport.sleep(waited, layer);
                }
            }
        }

        private Start start() {
            synchronized (transport) {
                transport.toolStarting();
                String op = transport.currentOp();
                int incarnation = transport.incarnation();
                int[] roundAndAfter = ToolRuns.roundAndAfterCall(transport, op, incarnation);
                return new Start(op, roundAndAfter[0], roundAndAfter[1], incarnation, transport.elapsedNanos());
            }
        }

        /**
         * Who ran a {@code tools/call}, for the {@code side_effects} verdicts: the client itself when it sends a
         * request id it already sent (a resend of its own), else the code that called the client: the framework whose
         * tool hook runs the tool on this thread, or the loop.
         */
        private String toolLayer(JsonNode id, String tool) {
            String idText = id == null ? null : Json.compact(id);
            for (int i = 0; idText != null && i < records.size(); i++) {
                McpRecord r = records.get(i);
                if (r.server().equals(server.name()) && "tools/call".equals(r.method()) && idText.equals(ids.get(i))) {
                    return layer;
                }
            }
            String caller = ToolRuns.runBy(tool);
            return (caller == null ? "the loop" : caller) + " over " + layer;
        }

        private void record(Start s, String method, JsonNode id, ToolCallContext call, JsonNode params,
                ToolFault fault, End end, String text) {
            synchronized (transport) {
                long endNanos = transport.elapsedNanos();
                int toolIndex = -1;
                if (call != null) {
                    JsonNode args = call.arguments != null ? call.arguments : NODES.objectNode();
                    ToolDeclaration declaration = config.tool(call.name);
                    ToolRuns.calledOverMcp(call.name);
                    String toolLayer = toolLayer(id, call.name);
                    toolIndex = transport.toolRuns().add(index -> new ToolRecord(index, s.op(), s.round(), call.name,
                            CanonicalJson.write(args), ToolRecording.fingerprint(call.name, args),
                            declaration.keyOf(args, null), fault.id(), end.toolResult(), end.committed(), toolLayer,
                            s.atNanos(), endNanos, s.incarnation(), s.afterCall(), false, server.name(), text));
                }
                records.add(new McpRecord(records.size(), server.name(), method, call == null ? null : call.name,
                        fault.id(), end.outcome(), call != null && end.committed(), s.op(), s.round(), layer, s.atNanos(), endNanos,
                        s.incarnation(), s.afterCall(), text));
                ids.add(id == null ? null : Json.compact(id));
                toolIndexes.add(toolIndex);
            }
        }
    }

    /** The tool a {@code tools/call} names, and which of its calls this is. */
    private static final class ToolCallContext {
        final String name;
        final JsonNode arguments;
        int ordinal;

        ToolCallContext(String name, JsonNode arguments) {
            this.name = name;
            this.arguments = arguments;
        }
    }

    private void elapse(Duration d) {
        if (!d.isZero() && !d.isNegative()) {
            synchronized (transport) {
                transport.elapse(d);
            }
        }
    }

    private RuntimeException missed(RuntimeException e) {
        synchronized (transport) {
            transport.missed(e);
        }
        return e;
    }

    /**
     * The progress notifications of {@code {slow: ..., progress: n}}: n of them, evenly over the delay, when the request
     * asked for progress with {@code _meta.progressToken}; none otherwise.
     */
    private static List<String> progress(JsonNode params, ToolFault fault) {
        JsonNode token = params == null ? null : params.path("_meta").get("progressToken");
        if (fault.progress() == 0 || token == null || token.isNull()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(fault.progress());
        for (int i = 1; i <= fault.progress(); i++) {
            ObjectNode p = NODES.objectNode();
            p.set("progressToken", token.deepCopy());
            p.put("progress", i);
            p.put("total", fault.progress());
            out.add(notification("notifications/progress", p));
        }
        return out;
    }

    /** The progress notifications sent before the client's timeout: the i-th of n at i/n of the delay. */
    private static List<String> before(List<String> progress, ToolFault fault, Duration timeout) {
        List<String> out = new ArrayList<>();
        int n = progress.size();
        for (int i = 1; i <= n; i++) {
            if (fault.delay().multipliedBy(i).dividedBy(n).compareTo(timeout) < 0) {
                out.add(progress.get(i - 1));
            }
        }
        return out;
    }

    private static String notification(String method, JsonNode params) {
        ObjectNode n = NODES.objectNode();
        n.put("jsonrpc", "2.0");
        n.put("method", method);
        if (params != null) {
            n.set("params", params.deepCopy());
        }
        return Json.compact(n);
    }

    private static ObjectNode response(JsonNode id, JsonNode result, ObjectNode error) {
        ObjectNode out = NODES.objectNode();
        out.put("jsonrpc", "2.0");
        out.set("id", id.deepCopy());
        if (error != null) {
            out.set("error", error);
        } else {
            out.set("result", result);
        }
        return out;
    }

    private static McpOutcome.Reply reply(List<String> before, ObjectNode response) {
        List<String> messages = new ArrayList<>(before);
        messages.add(Json.compact(response));
        return new McpOutcome.Reply(messages);
    }
}
