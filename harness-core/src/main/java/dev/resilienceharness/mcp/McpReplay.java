package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.JsonDiff;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers one MCP server's requests from its recorded sessions, matching on the method and the canonical params
 * ({@link McpRequestKey}), never on the JSON-RPC id. Identical requests are answered in the order they were recorded;
 * past the last recording the last answer is given again (as a model cassette answers every identical request), and
 * each such repeat is counted so that a report can show it. A request nothing answers throws {@link McpCassetteMiss}.
 * Safe for concurrent use.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class McpReplay {

    /** A recorded call and where it was recorded. */
    private record Recorded(McpExchange.Call call, String where, JsonNode matched, String fingerprint) {
    }

    /**
     * The answer to one request.
     *
     * @param call     the recorded call that answers it: its notifications, offsets and result or error
     * @param response the JSON-RPC response to send, carrying the request's id ({@code null} when asked by method
     *                 and params alone)
     * @param repeat   whether the request was asked more often than recorded and this answer is the last one again
     */
    @API(status = INTERNAL, since = "0.1.0")
    public record Answer(McpExchange.Call call, ObjectNode response, boolean repeat) {
    }

    private final String server;
    private final Map<McpRequestKey, List<Recorded>> byKey = new HashMap<>();
    private final Map<String, List<Recorded>> byMethod = new LinkedHashMap<>();
    private final Map<McpRequestKey, Integer> asked = new HashMap<>();
    private final Map<McpRequestKey, Integer> repeats = new LinkedHashMap<>();

    /**
     * A replay of {@code server} from {@code sessions}, taken in the order given (the sessions of a folder in file
     * name order).
     *
     * @throws IllegalArgumentException when a session is of another server
     */
    public McpReplay(String server, List<McpSession> sessions) {
        this.server = server;
        for (McpSession session : sessions) {
            if (!session.server().equals(server)) {
                throw new IllegalArgumentException("a session of server '" + session.server()
                        + "' cannot answer for server '" + server + "'");
            }
            List<McpExchange> exchanges = session.exchanges();
            for (int i = 0; i < exchanges.size(); i++) {
                if (exchanges.get(i) instanceof McpExchange.Call call) {
                    JsonNode matched = McpRequestKey.matched(call.params());
                    McpRequestKey key = McpRequestKey.of(call.method(), call.params());
                    String where = (session.file() == null ? "session" : session.file().toString())
                            + " exchanges[" + i + "]";
                    Recorded recorded = new Recorded(call, where, matched, key.fingerprint());
                    byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(recorded);
                    byMethod.computeIfAbsent(call.method(), k -> new ArrayList<>()).add(recorded);
                }
            }
        }
    }

    /**
     * Adds {@code call}, answered during the run (a recording run's live answer): it answers its request from now on,
     * after the recordings of that request before it.
     */
    public synchronized void add(McpExchange.Call call, String where) {
        McpRequestKey key = McpRequestKey.of(call.method(), call.params());
        Recorded recorded = new Recorded(call, where, McpRequestKey.matched(call.params()), key.fingerprint());
        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(recorded);
        byMethod.computeIfAbsent(call.method(), k -> new ArrayList<>()).add(recorded);
    }

    /** The server's name. */
    public String server() {
        return server;
    }

    /**
     * The recorded call that answers {@code method} with {@code params}: the n-th recording of that request for its
     * n-th asking, the last one past them.
     *
     * @throws McpCassetteMiss when no recording answers it
     */
    public synchronized Answer answer(String method, JsonNode params) {
        McpRequestKey key = McpRequestKey.of(method, params);
        List<Recorded> recorded = byKey.get(key);
        if (recorded == null) {
            throw miss(key, params);
        }
        int n = asked.merge(key, 1, Integer::sum) - 1;
        boolean repeat = n >= recorded.size();
        if (repeat) {
            repeats.merge(key, 1, Integer::sum);
        }
        McpExchange.Call call = recorded.get(Math.min(n, recorded.size() - 1)).call();
        return new Answer(call, response(call, null), repeat);
    }

    /**
     * The answer to a JSON-RPC request ({@code {"jsonrpc": "2.0", "id": ..., "method": ..., "params": ...}}): its
     * response carries the request's id, whatever id was recorded.
     *
     * @throws McpCassetteMiss          when no recording answers it
     * @throws IllegalArgumentException when {@code request} is not a JSON-RPC request (no string method, or no id)
     */
    public Answer answer(JsonNode request) {
        JsonNode method = request.get("method");
        JsonNode id = request.get("id");
        if (method == null || !method.isString() || id == null || !(id.isString() || id.isIntegralNumber())) {
            throw new IllegalArgumentException("not a JSON-RPC request: it needs a string method and a string or"
                    + " integer id");
        }
        Answer answer = answer(method.asString(), request.get("params"));
        return new Answer(answer.call(), response(answer.call(), id), answer.repeat());
    }

    /** How often each request was asked past its recordings, in the order first repeated. */
    public synchronized Map<McpRequestKey, Integer> repeats() {
        return Map.copyOf(repeats);
    }

    private static ObjectNode response(McpExchange.Call call, JsonNode id) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("jsonrpc", "2.0");
        out.set("id", id == null ? JsonNodeFactory.instance.nullNode() : id.deepCopy());
        if (call.result() != null) {
            out.set("result", call.result().deepCopy());
        } else {
            ObjectNode error = out.putObject("error");
            putCode(error, call.error().code());
            error.put("message", call.error().message());
            if (call.error().data() != null) {
                error.set("data", call.error().data().deepCopy());
            }
        }
        return out;
    }

    private McpCassetteMiss miss(McpRequestKey key, JsonNode params) {
        JsonNode matched = McpRequestKey.matched(params);
        List<Recorded> sameMethod = byMethod.get(key.method());
        String nearest;
        if (sameMethod == null) {
            nearest = McpMessages.noneOfMethod(key.method());
        } else {
            Recorded best = null;
            List<String> bestPaths = null;
            for (Recorded r : sameMethod) {
                List<String> paths = JsonDiff.paths(r.matched(), matched);
                if (best == null || paths.size() < bestPaths.size()) {
                    best = r;
                    bestPaths = paths;
                }
            }
            nearest = McpMessages.nearest(key.method(), best.where(), best.fingerprint(), bestPaths);
        }
        JsonNode name = "tools/call".equals(key.method()) && matched.isObject() ? matched.get("name") : null;
        String tool = name != null && name.isString() ? name.asString() : null;
        return new McpCassetteMiss(server, key, McpMessages.miss(server, key, tool, nearest));
    }

    /** An int where the code fits one, as JSON-RPC codes do, so that the node equals one read from the wire. */
    private static void putCode(ObjectNode error, long code) {
        if (code == (int) code) {
            error.put("code", (int) code);
        } else {
            error.put("code", code);
        }
    }
}
