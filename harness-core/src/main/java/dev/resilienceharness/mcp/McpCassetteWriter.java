package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.json.CanonicalJson;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes an MCP session file as model cassettes are written: indented as Python's {@code json.dumps(indent=2)},
 * atomically (a temporary file, then a rename). The file's own keys come in a fixed order and every recorded value's
 * keys are sorted, so that recording the same session twice writes the same bytes.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class McpCassetteWriter {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private McpCassetteWriter() {
    }

    /** Replaces {@code file} with {@code session}, creating its folder when needed. */
    public static void write(Path file, McpSession session) throws IOException {
        AtomicFiles.write(file, text(session).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The text of the file of {@code session}.
     *
     * @throws IllegalArgumentException when a recorded value holds a number with no JSON form
     */
    public static String text(McpSession session) {
        return Json.prettyPrint(toJson(session));
    }

    /** The JSON of the file of {@code session}. */
    public static ObjectNode toJson(McpSession session) {
        ObjectNode root = NODES.objectNode();
        root.put("version", 1);
        root.put("server", session.server());
        root.put("transport", session.transport().key());
        ArrayNode exchanges = root.putArray("exchanges");
        for (McpExchange exchange : session.exchanges()) {
            exchanges.add(exchange instanceof McpExchange.Call call ? call(call)
                    : notice((McpExchange.Notice) exchange));
        }
        return root;
    }

    private static ObjectNode call(McpExchange.Call call) {
        ObjectNode node = NODES.objectNode();
        node.set("request", message(call.method(), call.params()));
        if (!call.notifications().isEmpty()) {
            ArrayNode list = node.putArray("notifications");
            for (McpNotification n : call.notifications()) {
                ObjectNode item = list.addObject();
                item.put("offset_ms", n.offsetMs());
                item.put("method", n.method());
                if (n.params() != null) {
                    item.set("params", sorted(n.params()));
                }
            }
        }
        ObjectNode response = node.putObject("response");
        response.put("offset_ms", call.responseOffsetMs());
        if (call.result() != null) {
            response.set("result", sorted(call.result()));
        } else {
            ObjectNode error = response.putObject("error");
            putCode(error, call.error().code());
            error.put("message", call.error().message());
            if (call.error().data() != null) {
                error.set("data", sorted(call.error().data()));
            }
        }
        return node;
    }

    private static ObjectNode notice(McpExchange.Notice notice) {
        ObjectNode node = NODES.objectNode();
        node.set("notification", message(notice.method(), notice.params()));
        node.put("from", notice.from().key());
        node.put("offset_ms", notice.offsetMs());
        return node;
    }

    private static ObjectNode message(String method, JsonNode params) {
        ObjectNode node = NODES.objectNode();
        node.put("method", method);
        if (params != null) {
            node.set("params", sorted(params));
        }
        return node;
    }

    /** {@code value} with every object's keys sorted as canonical JSON sorts them. */
    private static JsonNode sorted(JsonNode value) {
        return Json.readTree(CanonicalJson.write(value));
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
