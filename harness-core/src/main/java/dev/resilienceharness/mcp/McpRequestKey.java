package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.Fingerprint;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an MCP request is matched on: its method and the fingerprint of its params' canonical JSON, the params'
 * top-level {@code _meta} (progress tokens and other per-run values) left out. The JSON-RPC id is never part of it.
 *
 * @param method      the request's method
 * @param fingerprint the fingerprint of its params without {@code _meta}; that of {@code {}} when it had none
 */
@API(status = INTERNAL, since = "0.1.0")
public record McpRequestKey(String method, String fingerprint) {

    /** The params key MCP reserves for metadata, left out of matching. */
    public static final String META = "_meta";

    public McpRequestKey {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }

    /**
     * The key of a request.
     *
     * @throws IllegalArgumentException when the params hold a number with no JSON form
     */
    public static McpRequestKey of(String method, JsonNode params) {
        return new McpRequestKey(method, Fingerprint.of(matched(params)));
    }

    /** The params as matching sees them: {@code {}} for none, the top-level {@code _meta} removed. */
    public static JsonNode matched(JsonNode params) {
        if (params == null || params.isNull() || params.isMissingNode()) {
            return tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }
        if (params.isObject() && params.has(META)) {
            ObjectNode copy = ((ObjectNode) params).deepCopy();
            copy.remove(META);
            return copy;
        }
        return params;
    }
}
