package dev.resilienceharness.loop;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one op came to (docs builtin-loop.md): the record a loop returns per op, in the outcome list.
 *
 * @param op          the op's name
 * @param status      ok, degraded or stopped
 * @param value       the response body (ok only)
 * @param reason      {@code timeout}, {@code schema} or {@code skipped} (degraded), {@code quota} (stopped)
 * @param retryAfter  the {@code Retry-After} header text of the stopping rejection, or {@code null}
 * @param attempts    every transport call made for the op, retries and repairs included
 * @param elapsedMs   first-token latency of a slow ok answer, else {@code null}
 * @param concurrency the concurrency limit after a slow first token, else {@code null}
 * @param streamEvents how many events of the op's broken stream arrived before it broke, else {@code null}
 * @param partialText  what the loop did with the text a broken stream had brought: {@code kept} or
 *                     {@code dropped}; else {@code null}
 */
@API(status = STABLE, since = "0.1.0")
public record Outcome(String op, Status status, JsonNode value, String reason, String retryAfter, int attempts,
        Long elapsedMs, Integer concurrency, Integer streamEvents, String partialText) {

    /** What the loop did with the partial text of a broken stream. */
    public static final String KEPT = "kept";
    public static final String DROPPED = "dropped";

    public Outcome {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(status, "status");
        if (partialText != null && !KEPT.equals(partialText) && !DROPPED.equals(partialText)) {
            throw new IllegalArgumentException("partial_text is kept or dropped, not " + partialText);
        }
    }

    /** An outcome of an op whose answers were not streamed, or never broke. */
    public Outcome(String op, Status status, JsonNode value, String reason, String retryAfter, int attempts,
            Long elapsedMs, Integer concurrency) {
        this(op, status, value, reason, retryAfter, attempts, elapsedMs, concurrency, null, null);
    }

    public static Outcome ok(String op, JsonNode value, int attempts) {
        return new Outcome(op, Status.OK, value, null, null, attempts, null, null);
    }

    public static Outcome degraded(String op, String reason, int attempts) {
        return new Outcome(op, Status.DEGRADED, null, reason, null, attempts, null, null);
    }

    /** The reason of an op that a degraded earlier op made impossible, and that the loop therefore never called. */
    public static final String SKIPPED = "skipped";

    /**
     * An op the loop did not attempt because a degraded earlier op made it impossible (a patch without a plan):
     * degraded, reason {@code skipped}, no attempts. A stop ends the outcome list instead; a skipped op stays in it.
     */
    public static Outcome skipped(String op) {
        return degraded(op, SKIPPED, 0);
    }

    public static Outcome stopped(String op, String retryAfter, int attempts) {
        return new Outcome(op, Status.STOPPED, null, "quota", retryAfter, attempts, null, null);
    }

    /** This ok outcome with a slow first token and the concurrency limit it left. */
    public Outcome slow(long elapsedMs, int concurrency) {
        return new Outcome(op, status, value, reason, retryAfter, attempts, elapsedMs, concurrency, streamEvents,
                partialText);
    }

    /**
     * This outcome of an op whose stream broke part-way: {@code events} had arrived, and the loop {@code kept} or
     * {@code dropped} the text they brought ({@link #KEPT}, {@link #DROPPED}).
     */
    public Outcome streamed(int events, String partial) {
        return new Outcome(op, status, value, reason, retryAfter, attempts, elapsedMs, concurrency, events, partial);
    }

    /** This outcome with another value (the determinism check strips volatile paths this way). */
    public Outcome withValue(JsonNode newValue) {
        return new Outcome(op, status, newValue, reason, retryAfter, attempts, elapsedMs, concurrency, streamEvents,
                partialText);
    }

    /** The outcome record with its keys in the documented order. */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("op", op);
        node.put("status", status.jsonName());
        switch (status) {
            case OK -> {
                node.set("value", value == null ? JsonNodeFactory.instance.nullNode() : value);
                node.put("attempts", attempts);
                if (elapsedMs != null) {
                    node.put("elapsed_ms", elapsedMs.longValue());
                }
                if (concurrency != null) {
                    node.put("concurrency", concurrency.intValue());
                }
            }
            case DEGRADED -> {
                node.put("reason", reason);
                node.put("attempts", attempts);
            }
            case STOPPED -> {
                node.put("reason", reason);
                if (retryAfter == null) {
                    node.putNull("retry_after");
                } else {
                    node.put("retry_after", retryAfter);
                }
                node.put("attempts", attempts);
            }
        }
        if (streamEvents != null) {
            node.put("stream_events", streamEvents.intValue());
        }
        if (partialText != null) {
            node.put("partial_text", partialText);
        }
        return node;
    }

    /**
     * Reads an outcome record back (from a journal line).
     *
     * @throws IllegalArgumentException when the node is not an outcome record
     */
    public static Outcome fromJson(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("an outcome record must be a JSON object");
        }
        JsonNode op = node.get("op");
        Status status = node.hasNonNull("status") ? Status.fromJson(node.get("status").asString()) : null;
        if (op == null || !op.isString() || status == null) {
            throw new IllegalArgumentException("an outcome record needs a string 'op' and a status of ok, degraded"
                    + " or stopped");
        }
        JsonNode attempts = node.get("attempts");
        return new Outcome(op.asString(), status, node.get("value"), text(node, "reason"), text(node, "retry_after"),
                attempts == null ? 0 : attempts.asInt(),
                node.hasNonNull("elapsed_ms") ? node.get("elapsed_ms").asLong() : null,
                node.hasNonNull("concurrency") ? node.get("concurrency").asInt() : null,
                node.hasNonNull("stream_events") ? node.get("stream_events").asInt() : null,
                KEPT.equals(text(node, "partial_text")) || DROPPED.equals(text(node, "partial_text"))
                        ? text(node, "partial_text") : null);
    }

    private static String text(JsonNode node, String key) {
        JsonNode v = node.get(key);
        return v == null || v.isNull() ? null : v.asString();
    }
}
