package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.invariant.TokenSpend;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.clock.VirtualClock;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One scenario as every report shows it (docs reports.md, {@code scenarios[]}) plus the timeline the
 * HTML page draws. It travels as JSON from the test engine to the goals, so it reads back what it writes.
 *
 * @param name        the scenario
 * @param calls       transport calls in the first run
 * @param callBudget  the bound of docs invariants/budget.md over the ops called
 * @param totalWaitMs all virtual waiting, in milliseconds
 * @param waitBoundMs {@code max_total_wait}, in milliseconds
 * @param outcomes    the outcome list, records in documented key order
 * @param violations  every violation found
 * @param timeline    the calls, waits and tool executions, for the timeline picture
 * @param spend       tokens, cost and refused calls against the budget, or {@code null} when none are counted
 */
@API(status = INTERNAL, since = "0.1.0")
public record ScenarioReport(String name, int calls, int callBudget, double totalWaitMs, double waitBoundMs,
        ArrayNode outcomes, List<Violation> violations, Timeline timeline, TokenSpend spend) {

    public ScenarioReport {
        violations = List.copyOf(violations);
    }

    /** A report that counts no tokens. */
    public ScenarioReport(String name, int calls, int callBudget, double totalWaitMs, double waitBoundMs,
            ArrayNode outcomes, List<Violation> violations, Timeline timeline) {
        this(name, calls, callBudget, totalWaitMs, waitBoundMs, outcomes, violations, timeline, null);
    }

    /**
     * The timeline of one run on the virtual clock.
     *
     * @param calls    each call: op, fault met, how it ended, when (ms)
     * @param waits    each wait: start and length (ms)
     * @param restarts indexes of the calls during which the process died
     * @param streams  each streamed answer: when its events arrived and where it was cut or stalled
     * @param tools    each tool execution, in order
     * @param mcp      each message an MCP client sent, in order (docs mcp.md)
     */
    public record Timeline(List<Call> calls, List<Wait> waits, List<Integer> restarts, List<Stream> streams,
            List<Tool> tools, List<Mcp> mcp) {
        public Timeline {
            calls = List.copyOf(calls);
            waits = List.copyOf(waits);
            restarts = List.copyOf(restarts);
            streams = List.copyOf(streams);
            tools = List.copyOf(tools);
            mcp = List.copyOf(mcp);
        }

        /** A timeline without MCP messages. */
        public Timeline(List<Call> calls, List<Wait> waits, List<Integer> restarts, List<Stream> streams,
                List<Tool> tools) {
            this(calls, waits, restarts, streams, tools, List.of());
        }

        /** A timeline without tool executions. */
        public Timeline(List<Call> calls, List<Wait> waits, List<Integer> restarts, List<Stream> streams) {
            this(calls, waits, restarts, streams, List.of());
        }

        /** A timeline without streamed answers. */
        public Timeline(List<Call> calls, List<Wait> waits, List<Integer> restarts) {
            this(calls, waits, restarts, List.of());
        }
    }

    /**
     * One streamed answer on the timeline.
     *
     * @param call     the index of the call that streamed it
     * @param fault    the fault the call met
     * @param end      {@code done}, {@code cut}, {@code stalled}, {@code error_event}, {@code malformed_event} or
     *                 {@code unread}
     * @param eventsMs when each event arrived (virtual ms since the run's start)
     * @param endMs    when the stream was cut, gave up stalled or broke, else {@code null}
     * @param sent     how many events the stream had to send
     */
    public record Stream(int call, String fault, String end, List<Double> eventsMs, Double endMs, int sent) {
        public Stream {
            eventsMs = List.copyOf(eventsMs);
        }

        /** What happened to it, in words: {@code stream cut after 3 events at t=200 ms}. */
        public String summary() {
            int n = eventsMs.size();
            String events = n + (n == 1 ? " event" : " events");
            String first = n == 0 ? "no event arrived" : "first event at t=" + HtmlReport.duration(eventsMs.get(0));
            String how = switch (end) {
                case "cut" -> "stream cut after " + events;
                case "stalled" -> "stream stalled after " + events + ", read timed out";
                case "error_event" -> "error event after " + (n - 1) + (n == 2 ? " event" : " events");
                case "malformed_event" -> "malformed event " + n;
                case "unread" -> events + " of " + sent + " read";
                default -> events;
            };
            return first + ", " + how + (endMs == null ? "" : " at t=" + HtmlReport.duration(endMs));
        }
    }

    /**
     * One tool execution, as report.json's {@code scenarios[].tools} writes it (docs reports.md).
     *
     * @param name           the tool
     * @param op             the op it ran for
     * @param round          the model round that asked for it (0 before any answer)
     * @param layer          who executed it: {@code the loop}, {@code Spring AI}, ...
     * @param fault          the tool fault it met, {@code none} when it met none
     * @param result         {@code ok}, {@code error}, {@code timeout} or {@code invalid_result}
     * @param committed      whether the tool's own code ran to the end: it took effect
     * @param atMs           when it started (virtual ms since the run's start)
     * @param endMs          when its caller had an answer or a failure
     * @param incarnation    which process incarnation ran it (0 before any restart)
     * @param afterCall      the index of its op's last call before it, or -1: where the timeline draws it
     * @param server         the MCP server that served it, or {@code null} for a tool the loop ran itself
     * @param answeredAsText what the loop was handed instead of the failure, when its MCP client turned the failure
     *                       into an ordinary result; else {@code null}
     */
    public record Tool(String name, String op, int round, String layer, String fault, String result,
            boolean committed, double atMs, double endMs, int incarnation, int afterCall, String server,
            String answeredAsText) {

        /** An execution of a tool the loop ran itself. */
        public Tool(String name, String op, int round, String layer, String fault, String result, boolean committed,
                double atMs, double endMs, int incarnation, int afterCall) {
            this(name, op, round, layer, fault, result, committed, atMs, endMs, incarnation, afterCall, null, null);
        }

        /** The execution in words, as the timeline's tooltip and the tool table say it. */
        public String summary() {
            return "tool " + name + (server == null ? "" : " on MCP server " + server) + " for op " + op + ", round "
                    + round + ", by " + layer + " at t=" + HtmlReport.duration(atMs) + " \u2014 fault " + fault + ", "
                    + result + (committed ? ", committed" : ", not committed")
                    + (incarnation > 0 ? ", process incarnation " + incarnation : "")
                    + (answeredAsText == null ? "" : ", handed to the loop as the text \"" + answeredAsText + "\"");
        }
    }

    /**
     * One message an MCP client sent, as report.json's {@code scenarios[].mcp} writes it (docs mcp.md).
     *
     * @param server         the server
     * @param method         the JSON-RPC method
     * @param tool           for {@code tools/call}, the tool; else {@code null}
     * @param op             the op it was sent for
     * @param layer          the client that sent it
     * @param fault          the MCP fault it met, {@code none} when it met none
     * @param outcome        what the client saw: {@code result}, {@code tool error}, {@code protocol error},
     *                       {@code no reply}, {@code session not found}, {@code server gone}, {@code throttled} or
     *                       {@code notice}
     * @param committed      for {@code tools/call}, whether the server ran the tool: it took effect
     * @param atMs           when it was sent (virtual ms since the run's start)
     * @param endMs          when the client had its outcome
     * @param incarnation    which process incarnation sent it
     * @param afterCall      the index of its op's last model call before it, or -1: where the timeline draws it
     * @param answeredAsText what the client handed the loop instead of the failure, else {@code null}
     */
    public record Mcp(String server, String method, String tool, String op, String layer, String fault,
            String outcome, boolean committed, double atMs, double endMs, int incarnation, int afterCall,
            String answeredAsText) {

        /** What the timeline labels it with: the tool for {@code tools/call}, else the method. */
        public String label() {
            return tool != null ? tool : method;
        }

        /** The message in words, as the timeline's tooltip says it. */
        public String summary() {
            return "MCP " + server + ": " + method + (tool == null ? "" : " " + tool) + " for op " + op + ", by "
                    + layer + " at t=" + HtmlReport.duration(atMs) + " \u2014 fault " + fault + ", " + outcome
                    + (incarnation > 0 ? ", process incarnation " + incarnation : "")
                    + (answeredAsText == null ? "" : ", handed to the loop as the text \"" + answeredAsText + "\"");
        }
    }

    /**
     * One call on the timeline.
     *
     * @param sdk      the SDK that sent it, or {@code null} for a {@code Transport} call
     * @param sdkRetry 0 when the loop made it, n when it was the SDK's own n-th retry
     */
    public record Call(String op, int repair, String fault, String result, double atMs, Long firstTokenMs, String sdk,
            int sdkRetry, String limit) {

        /**
         * A call no provider limit refused.
         *
         * @param sdk      the SDK that sent it, or {@code null} for a {@code Transport} call
         * @param sdkRetry 0 when the loop made it, n when it was the SDK's own n-th retry
         */
        public Call(String op, int repair, String fault, String result, double atMs, Long firstTokenMs, String sdk,
                int sdkRetry) {
            this(op, repair, fault, result, atMs, firstTokenMs, sdk, sdkRetry, null);
        }

        /** A call the loop made through {@code Transport}. */
        public Call(String op, int repair, String fault, String result, double atMs, Long firstTokenMs) {
            this(op, repair, fault, result, atMs, firstTokenMs, null, 0);
        }
    }

    /**
     * One wait on the timeline.
     *
     * @param by the SDK whose retry layer waited, or {@code null} for the loop
     */
    public record Wait(double startMs, double ms, String by) {

        /** A wait the loop took. */
        public Wait(double startMs, double ms) {
            this(startMs, ms, null);
        }
    }

    /** The report of a checked scenario. */
    public static ScenarioReport of(ScenarioResult result) {
        ArrayNode outcomes = JsonNodeFactory.instance.arrayNode();
        for (Outcome o : result.trace().outcomes()) {
            outcomes.add(o.toJson());
        }
        List<Call> calls = new ArrayList<>();
        for (CallRecord c : result.trace().calls()) {
            // A call the limits refused shows the limit where a scripted fault would show: that is what it met.
            calls.add(new Call(c.op(), c.repair(), c.limit() != null ? c.limit() : c.fault(),
                    c.result().name().toLowerCase(java.util.Locale.ROOT), c.atNanos() / 1_000_000.0, c.firstTokenMs(),
                    c.sdk(), c.sdkRetry(), c.limit()));
        }
        List<Wait> waits = new ArrayList<>();
        for (VirtualClock.Wait w : result.trace().waits()) {
            waits.add(new Wait(w.startNanos() / 1_000_000.0, w.nanos() / 1_000_000.0, w.by()));
        }
        List<Integer> restarts = result.trace().restarts().stream().map(r -> r.afterCall()).toList();
        List<Stream> streams = new ArrayList<>();
        for (dev.resilienceharness.trace.StreamTrace st : result.trace().streams()) {
            streams.add(new Stream(st.call(), st.fault(), st.end(), st.eventNanos().stream()
                    .map(n -> n / 1_000_000.0).toList(), st.endNanos() == null ? null : st.endNanos() / 1_000_000.0,
                    st.sent()));
        }
        List<Tool> tools = new ArrayList<>();
        for (dev.resilienceharness.trace.ToolRecord t : result.trace().tools()) {
            tools.add(new Tool(t.name(), t.op(), t.round(), t.layer(), t.fault(),
                    t.result().name().toLowerCase(java.util.Locale.ROOT), t.committed(), t.atNanos() / 1_000_000.0,
                    t.endNanos() / 1_000_000.0, t.incarnation(), t.afterCall(), t.server(), t.answeredAsText()));
        }
        List<Mcp> mcp = new ArrayList<>();
        for (dev.resilienceharness.trace.McpRecord m : result.trace().mcp()) {
            mcp.add(new Mcp(m.server(), m.method(), m.tool(), m.op(), m.layer(), m.fault(), m.outcome().text(),
                    m.committed(), m.atNanos() / 1_000_000.0, m.endNanos() / 1_000_000.0, m.incarnation(),
                    m.afterCall(), m.answeredAsText()));
        }
        return new ScenarioReport(result.scenario().name(), result.calls(), result.callBudget(),
                result.trace().totalWaitMs(), result.waitBoundMs(), outcomes, result.violations(),
                new Timeline(calls, waits, restarts, streams, tools, mcp), result.spend());
    }

    /**
     * This report without its outcomes, for a goal that delivers only violations and counts. An ok op's outcome holds
     * its recorded answer, so a check that kept every scenario's outcomes until it ends would keep nearly every answer
     * of the corpus alive: 1.6 GB of heap at 100,000 cassettes. Not for report.json or report.html, which print them.
     */
    public ScenarioReport withoutOutcomes() {
        return new ScenarioReport(name, calls, callBudget, totalWaitMs, waitBoundMs,
                JsonNodeFactory.instance.arrayNode(), violations, timeline, spend);
    }

    /** The {@code scenarios[]} entry of report.json, with the timeline under {@code timeline}. */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("name", name);
        node.put("calls", calls);
        node.put("call_budget", callBudget);
        node.put("total_wait_ms", totalWaitMs);
        node.put("wait_bound_ms", waitBoundMs);
        node.set("outcomes", outcomes);
        ArrayNode vs = node.putArray("violations");
        for (Violation v : violations) {
            vs.add(violationJson(v));
        }
        if (spend != null) {
            ObjectNode t = node.putObject("tokens");
            t.put("spent", spend.tokens());
            putNullable(t, "budget", spend.tokenBudget());
            putNullable(t, "op_budget", spend.opTokenBudget());
            if (spend.cost() != null) {
                t.put("cost", spend.cost().toPlainString());
                t.put("unpriced", spend.unpricedTokens());
            }
            t.put("refused_calls", spend.refused());
        }
        ArrayNode ts = node.putArray("tools");
        for (Tool t : timeline.tools()) {
            ObjectNode tn = ts.addObject()
                    .put("name", t.name())
                    .put("op", t.op())
                    .put("round", t.round())
                    .put("layer", t.layer())
                    .put("fault", t.fault())
                    .put("result", t.result())
                    .put("committed", t.committed())
                    .put("at_ms", t.atMs())
                    .put("end_ms", t.endMs())
                    .put("incarnation", t.incarnation())
                    .put("after_call", t.afterCall());
            // Only an MCP tool has these: a report of local tools reads as it did before MCP.
            if (t.server() != null) {
                tn.put("server", t.server());
            }
            if (t.answeredAsText() != null) {
                tn.put("answered_as_text", t.answeredAsText());
            }
        }
        if (!timeline.mcp().isEmpty()) {
            ArrayNode ms = node.putArray("mcp");
            for (Mcp m : timeline.mcp()) {
                ObjectNode mn = ms.addObject()
                        .put("server", m.server())
                        .put("method", m.method());
                if (m.tool() != null) {
                    mn.put("tool", m.tool());
                }
                mn.put("op", m.op())
                        .put("layer", m.layer())
                        .put("fault", m.fault())
                        .put("outcome", m.outcome())
                        .put("committed", m.committed())
                        .put("at_ms", m.atMs())
                        .put("end_ms", m.endMs())
                        .put("incarnation", m.incarnation())
                        .put("after_call", m.afterCall());
                if (m.answeredAsText() != null) {
                    mn.put("answered_as_text", m.answeredAsText());
                }
            }
        }
        ObjectNode tl = node.putObject("timeline");
        ArrayNode cs = tl.putArray("calls");
        for (Call c : timeline.calls()) {
            ObjectNode cn = cs.addObject();
            cn.put("op", c.op());
            cn.put("repair", c.repair());
            cn.put("fault", c.fault());
            cn.put("result", c.result());
            cn.put("at_ms", c.atMs());
            if (c.firstTokenMs() != null) {
                cn.put("first_token_ms", c.firstTokenMs().longValue());
            }
            if (c.sdk() != null) {
                cn.put("sdk", c.sdk());
                cn.put("sdk_retry", c.sdkRetry());
            }
            if (c.limit() != null) {
                cn.put("limit", c.limit());
            }
        }
        ArrayNode ws = tl.putArray("waits");
        for (Wait w : timeline.waits()) {
            ObjectNode wn = ws.addObject().put("start_ms", w.startMs()).put("ms", w.ms());
            if (w.by() != null) {
                wn.put("by", w.by());
            }
        }
        ArrayNode rs = tl.putArray("restarts");
        timeline.restarts().forEach(rs::add);
        if (!timeline.streams().isEmpty()) {
            ArrayNode ss = tl.putArray("streams");
            for (Stream st : timeline.streams()) {
                ObjectNode sn = ss.addObject().put("call", st.call()).put("fault", st.fault()).put("end", st.end());
                ArrayNode es = sn.putArray("events_ms");
                st.eventsMs().forEach(es::add);
                if (st.endMs() != null) {
                    sn.put("end_ms", st.endMs().doubleValue());
                }
                sn.put("sent", st.sent());
            }
        }
        return node;
    }

    /** A violation as report.json writes it: invariant and message first, then the details. */
    public static ObjectNode violationJson(Violation v) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("invariant", v.invariant().id());
        n.put("message", v.line());
        n.put("subject", v.subject());
        putNullable(n, "op", v.op());
        putNullable(n, "bound", v.bound());
        putNullable(n, "actual", v.actual());
        n.put("detail", v.message());
        putNullable(n, "hint", v.hint());
        return n;
    }

    private static void putNullable(ObjectNode n, String key, String value) {
        if (value == null) {
            n.putNull(key);
        } else {
            n.put(key, value);
        }
    }

    /** Reads a violation back from {@link #violationJson}. */
    public static Violation violationFromJson(JsonNode n) {
        return new Violation(Invariant.fromId(n.get("invariant").asString()), n.get("subject").asString(),
                text(n, "op"), text(n, "bound"), text(n, "actual"), n.get("detail").asString(), text(n, "hint"));
    }

    private static String text(JsonNode n, String key) {
        JsonNode v = n.get(key);
        return v == null || v.isNull() ? null : v.asString();
    }

    /** Reads a report back from {@link #toJson()}. */
    public static ScenarioReport fromJson(JsonNode node) {
        List<Violation> violations = new ArrayList<>();
        node.get("violations").forEach(v -> violations.add(violationFromJson(v)));
        JsonNode tl = node.get("timeline");
        List<Call> calls = new ArrayList<>();
        tl.get("calls").forEach(c -> calls.add(new Call(c.get("op").asString(), c.get("repair").asInt(),
                c.get("fault").asString(), c.get("result").asString(), c.get("at_ms").asDouble(),
                c.hasNonNull("first_token_ms") ? c.get("first_token_ms").asLong() : null, text(c, "sdk"),
                c.path("sdk_retry").asInt(0), text(c, "limit"))));
        List<Wait> waits = new ArrayList<>();
        tl.get("waits").forEach(w -> waits.add(new Wait(w.get("start_ms").asDouble(), w.get("ms").asDouble(),
                text(w, "by"))));
        List<Integer> restarts = new ArrayList<>();
        tl.get("restarts").forEach(r -> restarts.add(r.asInt()));
        List<Stream> streams = new ArrayList<>();
        tl.path("streams").forEach(st -> {
            List<Double> events = new ArrayList<>();
            st.path("events_ms").forEach(e -> events.add(e.asDouble()));
            streams.add(new Stream(st.get("call").asInt(), st.get("fault").asString(), st.get("end").asString(),
                    events, st.hasNonNull("end_ms") ? st.get("end_ms").asDouble() : null, st.path("sent").asInt()));
        });
        List<Tool> tools = new ArrayList<>();
        // A report written before tools were reported has no "tools": it ran none.
        node.path("tools").forEach(t -> tools.add(new Tool(t.get("name").asString(), t.get("op").asString(),
                t.get("round").asInt(), t.get("layer").asString(), t.get("fault").asString(),
                t.get("result").asString(), t.get("committed").asBoolean(), t.get("at_ms").asDouble(),
                t.get("end_ms").asDouble(), t.get("incarnation").asInt(), t.path("after_call").asInt(-1),
                text(t, "server"), text(t, "answered_as_text"))));
        List<Mcp> mcp = new ArrayList<>();
        // A report written before MCP, or of a run that reached no MCP server, has no "mcp".
        node.path("mcp").forEach(m -> mcp.add(new Mcp(m.get("server").asString(), m.get("method").asString(),
                text(m, "tool"), m.get("op").asString(), m.get("layer").asString(), m.get("fault").asString(),
                m.get("outcome").asString(), m.get("committed").asBoolean(), m.get("at_ms").asDouble(),
                m.get("end_ms").asDouble(), m.get("incarnation").asInt(), m.path("after_call").asInt(-1),
                text(m, "answered_as_text"))));
        return new ScenarioReport(node.get("name").asString(), node.get("calls").asInt(),
                node.get("call_budget").asInt(), node.get("total_wait_ms").asDouble(),
                node.get("wait_bound_ms").asDouble(), (ArrayNode) node.get("outcomes"), violations,
                new Timeline(calls, waits, restarts, streams, tools, mcp), spendFromJson(node.get("tokens")));
    }

    private static TokenSpend spendFromJson(JsonNode t) {
        if (t == null) {
            return null;
        }
        return new TokenSpend(t.get("spent").asLong(), t.hasNonNull("budget") ? t.get("budget").asLong() : null,
                t.hasNonNull("op_budget") ? t.get("op_budget").asLong() : null,
                t.hasNonNull("cost") ? new java.math.BigDecimal(t.get("cost").asString()).setScale(6, java.math.RoundingMode.HALF_EVEN) : null, t.path("unpriced").asLong(0),
                t.path("refused_calls").asInt(0));
    }

    private static void putNullable(ObjectNode n, String key, Long value) {
        if (value == null) {
            n.putNull(key);
        } else {
            n.put(key, value.longValue());
        }
    }
}
