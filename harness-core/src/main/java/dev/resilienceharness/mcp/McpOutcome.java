package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What an MCP client sees for one message it sent through a scenario run's {@link McpEndpoint} (docs mcp.md). The
 * run's virtual clock has already moved on by the time the outcome is returned: an adapter delivers it at once, as its
 * client library would have seen it, and never waits for real.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface McpOutcome {

    /**
     * The server answered: its messages, in the order sent (progress or list-changed notifications, then the
     * JSON-RPC response carrying the request's id). Empty for a notification the client sent.
     *
     * @param messages JSON-RPC messages as JSON text, one per message
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    record Reply(List<String> messages) implements McpOutcome {
        public Reply {
            messages = List.copyOf(messages);
        }
    }

    /**
     * No answer came before the client's request timeout ran out on the virtual clock ({@code timeout}, {@code hang},
     * or {@code slow} past the timeout). The adapter raises what its client raises when its own timeout fires; any
     * messages the server sent before are delivered first.
     *
     * @param waited   the client's request timeout, now elapsed on the virtual clock
     * @param messages what the server sent before the timeout (progress notifications), as JSON text
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    record NoReply(Duration waited, List<String> messages) implements McpOutcome {
        public NoReply {
            Objects.requireNonNull(waited, "waited");
            messages = List.copyOf(messages);
        }
    }

    /**
     * Streamable HTTP answered 404 for the client's session ({@code session_expired}): the server no longer knows it.
     * Every request but {@code initialize} meets this until the client initializes again.
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    record SessionNotFound() implements McpOutcome {
    }

    /**
     * The server went away mid-request ({@code server_exit}): a stdio process died or an HTTP connection was reset.
     * The request's answer is lost; every request but {@code initialize} fails the same way until the client starts a
     * new session.
     *
     * @param detail what the client's transport reports, such as {@code the MCP server process exited with code 137}
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    record ServerGone(String detail) implements McpOutcome {
        public ServerGone {
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * Streamable HTTP answered 429 ({@code rate_limited}), with {@code Retry-After}.
     *
     * @param retryAfter the {@code Retry-After} the server sent
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    record Throttled(Duration retryAfter) implements McpOutcome {
        public Throttled {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }
}
