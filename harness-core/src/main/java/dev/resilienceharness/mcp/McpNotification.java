package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * A notification a server sent while it worked on a request, such as {@code notifications/progress}.
 *
 * @param offsetMs virtual milliseconds after the request was sent
 * @param method   the notification's method
 * @param params   its params, or {@code null} when it had none
 */
@API(status = INTERNAL, since = "0.1.0")
public record McpNotification(long offsetMs, String method, JsonNode params) {

    public McpNotification {
        Objects.requireNonNull(method, "method");
        if (offsetMs < 0) {
            throw new IllegalArgumentException("offset " + offsetMs + " ms is negative");
        }
    }
}
