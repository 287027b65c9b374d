package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC error a server answered with, such as {@code -32602} for invalid params.
 *
 * @param code    the JSON-RPC error code
 * @param message the error's message
 * @param data    the error's {@code data}, or {@code null} when it had none
 */
@API(status = INTERNAL, since = "0.1.0")
public record McpError(long code, String message, JsonNode data) {

    public McpError {
        Objects.requireNonNull(message, "message");
    }
}
