package dev.resilienceharness.report;

import dev.resilienceharness.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The compact timeline the HTML page draws when a scenario is opened: op lanes, calls, waits placed between
 * calls, restarts and each op's outcome, as JSON safe to embed in a {@code <script type="application/json">}.
 */
final class TimelineData {

    private TimelineData() {
    }

    /**
     * For each wait, the index of the call it follows ({@code -1}: before the first call). Calls and waits
     * carry only virtual times, so a wait comes after every call made up to its start; a zero-length wait
     * (a {@code Retry-After: 0}) shares its instant with the calls around it and follows just one of them.
     */
    static int[] waitPlacement(ScenarioReport.Timeline timeline) {
        List<ScenarioReport.Call> calls = timeline.calls();
        List<ScenarioReport.Wait> waits = timeline.waits();
        int[] after = new int[waits.size()];
        int next = 0;
        for (int w = 0; w < waits.size(); w++) {
            ScenarioReport.Wait wait = waits.get(w);
            if (wait.ms() > 0) {
                while (next < calls.size() && calls.get(next).atMs() <= wait.startMs()) {
                    next++;
                }
            } else {
                while (next < calls.size() && calls.get(next).atMs() < wait.startMs()) {
                    next++;
                }
                if (next < calls.size() && calls.get(next).atMs() == wait.startMs()) {
                    next++;
                }
            }
            after[w] = next - 1;
        }
        return after;
    }

    /**
     * The data as a JSON tree: {@code ops}, {@code calls}, {@code waits}, {@code restarts}, {@code outcomes}, and
     * {@code streams} when a call streamed, {@code tools} when a tool ran, {@code mcp} when an MCP client sent a request
     * other than {@code tools/call} (whose tool execution is in {@code tools}).
     */
    static ObjectNode toJson(ScenarioReport s) {
        ScenarioReport.Timeline tl = s.timeline();
        Map<String, Integer> lanes = new LinkedHashMap<>();
        tl.calls().forEach(c -> lanes.putIfAbsent(c.op(), lanes.size()));
        tl.tools().forEach(t -> lanes.putIfAbsent(t.op(), lanes.size()));
        List<ScenarioReport.Mcp> requests = tl.mcp().stream()
                .filter(m -> m.tool() == null && !"notice".equals(m.outcome())).toList();
        requests.forEach(m -> lanes.putIfAbsent(m.op(), lanes.size()));
        for (JsonNode o : s.outcomes()) {
            lanes.putIfAbsent(o.path("op").asString(""), lanes.size());
        }
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode ops = root.putArray("ops");
        lanes.keySet().forEach(ops::add);
        ArrayNode calls = root.putArray("calls");
        for (ScenarioReport.Call c : tl.calls()) {
            ArrayNode a = calls.addArray();
            a.add(lanes.get(c.op())).add(c.repair()).add(c.fault()).add(c.result()).add(c.atMs());
            if (c.firstTokenMs() == null) {
                a.addNull();
            } else {
                a.add(c.firstTokenMs().longValue());
            }
            if (c.sdk() != null) {
                a.add(c.sdk()).add(c.sdkRetry());
            }
        }
        ArrayNode waits = root.putArray("waits");
        int[] after = waitPlacement(tl);
        for (int i = 0; i < tl.waits().size(); i++) {
            ScenarioReport.Wait w = tl.waits().get(i);
            ArrayNode wa = waits.addArray().add(w.startMs()).add(w.ms()).add(after[i]);
            if (w.by() != null) {
                wa.add(w.by());
            }
        }
        ArrayNode restarts = root.putArray("restarts");
        tl.restarts().forEach(restarts::add);
        if (!tl.streams().isEmpty()) {
            ArrayNode streams = root.putArray("streams");
            for (ScenarioReport.Stream st : tl.streams()) {
                ArrayNode sa = streams.addArray().add(st.call()).add(st.end());
                ArrayNode events = sa.addArray();
                st.eventsMs().forEach(events::add);
                if (st.endMs() == null) {
                    sa.addNull();
                } else {
                    sa.add(st.endMs().doubleValue());
                }
                sa.add(st.summary());
            }
        }
        if (!tl.tools().isEmpty()) {
            ArrayNode tools = root.putArray("tools");
            for (ScenarioReport.Tool t : tl.tools()) {
                tools.addArray().add(lanes.get(t.op())).add(t.name()).add(t.fault()).add(t.result()).add(t.atMs())
                        .add(t.endMs()).add(Math.min(t.afterCall(), tl.calls().size() - 1)).add(t.committed())
                        .add(t.summary());
            }
        }
        if (!requests.isEmpty()) {
            ArrayNode mcp = root.putArray("mcp");
            for (ScenarioReport.Mcp m : requests) {
                mcp.addArray().add(lanes.get(m.op())).add(m.server() + ": " + m.label()).add(m.fault())
                        .add(m.outcome()).add(m.atMs()).add(m.endMs())
                        .add(Math.min(m.afterCall(), tl.calls().size() - 1)).add(m.summary());
            }
        }
        ArrayNode outcomes = root.putArray("outcomes");
        List<String> seen = new ArrayList<>();
        for (JsonNode o : s.outcomes()) {
            String op = o.path("op").asString("");
            if (seen.contains(op)) {
                continue;
            }
            seen.add(op);
            outcomes.addArray().add(lanes.get(op)).add(o.path("status").asString(""))
                    .add(o.path("reason").isString() ? o.get("reason").asString() : "")
                    .add(o.path("attempts").asInt(0));
        }
        return root;
    }

    /** The JSON text, with {@code < > &} and U+2028/U+2029 escaped so no text in it can end the script block. */
    static String forScript(ScenarioReport s) {
        return scriptSafe(Json.compact(toJson(s)));
    }

    /** Escapes JSON text for a script element; the replaced characters occur in JSON only inside strings. */
    static String scriptSafe(String json) {
        StringBuilder out = new StringBuilder(json.length() + 16);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<' -> out.append("\\u003c");
                case '>' -> out.append("\\u003e");
                case '&' -> out.append("\\u0026");
                case '\u2028' -> out.append("\\u2028");
                case '\u2029' -> out.append("\\u2029");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
