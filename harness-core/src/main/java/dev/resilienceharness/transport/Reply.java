package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Objects;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * A provider's successful answer to one call.
 *
 * @param body         the response body
 * @param firstTokenMs how late the first token arrived, when known
 */
@API(status = STABLE, since = "0.1.0")
public record Reply(JsonNode body, OptionalLong firstTokenMs) implements CallResult {
    public Reply {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(firstTokenMs, "firstTokenMs");
    }

    /** A reply whose first-token latency is not known. */
    public static Reply of(JsonNode body) {
        return new Reply(body, OptionalLong.empty());
    }

    /** This reply arriving {@code elapsedMs} after the call. */
    public Reply arrivingAfter(long elapsedMs) {
        return new Reply(body, OptionalLong.of(elapsedMs));
    }
}
