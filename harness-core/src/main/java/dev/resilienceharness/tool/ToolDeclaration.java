package dev.resilienceharness.tool;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * One entry of the yaml's {@code tools:} (docs tools.md), by the name the model sees.
 *
 * @param name           the tool's name
 * @param sideEffects    {@code side_effects: true}: the tool changes the world and must take effect at most once per
 *                       logical call
 * @param replay         whether rehearsal runs the team's code or answers from the tool's recordings
 * @param outputSchema   {@code output_schema:}, the JSON Schema of the tool's result, or {@code null}
 * @param idempotencyKey {@code idempotency_key:}: a JSON pointer into the arguments (such as {@code /refund_id}), or
 *                       {@link #PASSED} for the key the caller passes with the execution; the declaration says the
 *                       tool honours that key. {@code null}: no key
 * @param timeout        {@code timeout:}, how long the tool's caller waits for it (what a {@code timeout} fault runs
 *                       out)
 * @param server         {@code server:}, the MCP server that serves the tool (docs mcp.md), or {@code null} for a
 *                       tool the loop runs itself
 * @param line           the line of the declaration in its yaml file, or 0 when it was built in code
 */
@API(status = INTERNAL, since = "0.1.0")
public record ToolDeclaration(String name, boolean sideEffects, Replay replay, JsonNode outputSchema,
        String idempotencyKey, Duration timeout, String server, int line) {

    /** {@code timeout:} when a declaration names none. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    /** {@link #idempotencyKey} of a tool whose key the caller passes with the execution. */
    public static final String PASSED = "passed";

    public ToolDeclaration {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(replay, "replay");
        Objects.requireNonNull(timeout, "timeout");
    }

    /** A tool the loop runs itself, not served by an MCP server. */
    public ToolDeclaration(String name, boolean sideEffects, Replay replay, JsonNode outputSchema,
            String idempotencyKey, Duration timeout, int line) {
        this(name, sideEffects, replay, outputSchema, idempotencyKey, timeout, null, line);
    }

    /** Whether an MCP server serves the tool. */
    public boolean mcp() {
        return server != null;
    }

    /** How a tool that no {@code tools:} entry declares is treated: read-only, live, a 30 s timeout. */
    public static ToolDeclaration undeclared(String name) {
        return new ToolDeclaration(name, false, Replay.LIVE, null, null, DEFAULT_TIMEOUT, 0);
    }

    /**
     * The idempotency key of one execution: the text (or the JSON of a non-text value) at the declared pointer in
     * {@code arguments}, or {@code passed} for {@link #PASSED}; {@code null} when the tool declares no key or the
     * execution carries none.
     */
    public String keyOf(JsonNode arguments, String passed) {
        if (idempotencyKey == null) {
            return null;
        }
        if (PASSED.equals(idempotencyKey)) {
            return passed;
        }
        if (arguments == null) {
            return null;
        }
        JsonNode at = arguments.at(idempotencyKey);
        if (at == null || at.isMissingNode() || at.isNull()) {
            return null;
        }
        return at.isString() ? at.asString() : at.toString();
    }

    /** {@code replay:}: whether rehearsal runs the tool. */
    public enum Replay {
        /** The team's own code runs (the default). */
        LIVE("live"),
        /** The tool's results are recorded once with the model's answers and replayed: no real side effect. */
        RECORDED("recorded");

        private final String id;

        Replay(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }
}
