package dev.resilienceharness.tool;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One execution of a tool, as the model asked for it: {@code run.tool(ToolCall.of("refund", args), () -> ...)}.
 *
 * @param name           the tool's name as the model sees it (a {@code @Tool}'s name, a function's name)
 * @param arguments      the arguments as JSON text, as the model sent them ({@code "{}"} for none)
 * @param idempotencyKey the key the caller passes with this execution when the tool's declaration says
 *                       {@code idempotency_key: passed}, else {@code null}
 * @param layer          who executed it: {@link #LOOP} for the team's own code, or the framework that ran it
 *                       ({@code "Spring AI"}, {@code "langchain4j"})
 */
@API(status = STABLE, since = "0.1.0")
public record ToolCall(String name, String arguments, String idempotencyKey, String layer) {

    /** {@link #layer} of an execution the team's own loop made through {@code run.tool}. */
    public static final String LOOP = "the loop";

    public ToolCall {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(layer, "layer");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a tool needs a name, as the model sees it");
        }
    }

    /** An execution the loop makes itself, with no idempotency key. */
    public static ToolCall of(String name, String arguments) {
        return new ToolCall(name, arguments, null, LOOP);
    }

    /** This execution carrying {@code key}, which a tool declared with {@code idempotency_key: passed} honours. */
    public ToolCall idempotencyKey(String key) {
        return new ToolCall(name, arguments, Objects.requireNonNull(key, "key"), layer);
    }

    /** This execution as made by {@code framework} (for adapters). */
    public ToolCall by(String framework) {
        return new ToolCall(name, arguments, idempotencyKey, framework);
    }
}
