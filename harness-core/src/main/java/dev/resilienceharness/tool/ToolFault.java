package dev.resilienceharness.tool;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One entry of a scenario's {@code tool_faults:} list for a tool (docs tools.md), consumed one per execution of that
 * tool, or of its {@code mcp_faults:} list for an MCP server (docs mcp.md), consumed one per request to that server.
 *
 * @param kind     what happens to the execution
 * @param delay    for {@link Kind#SLOW}, how late the tool answers; for {@link Kind#RATE_LIMITED}, the
 *                 {@code Retry-After} the server sends; else {@link Duration#ZERO}
 * @param code     for {@link Kind#PROTOCOL_ERROR}, the JSON-RPC error code; else 0
 * @param progress for {@link Kind#SLOW} on an MCP tool, how many {@code notifications/progress} the server sends while
 *                 it is late; else 0
 */
@API(status = INTERNAL, since = "0.1.0")
public record ToolFault(Kind kind, Duration delay, long code, int progress) {

    /** An execution that meets no fault. */
    public static final ToolFault NONE = new ToolFault(Kind.NONE, Duration.ZERO);

    /** The JSON-RPC code of a bare {@code protocol_error}: internal error. */
    public static final long DEFAULT_PROTOCOL_ERROR = -32603;

    /** The {@code Retry-After} of a bare {@code rate_limited}. */
    public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

    public ToolFault {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(delay, "delay");
        if (progress < 0) {
            throw new IllegalArgumentException("progress " + progress + " is negative");
        }
    }

    /** A fault without a code or progress notifications. */
    public ToolFault(Kind kind, Duration delay) {
        this(kind, delay, 0, 0);
    }

    /** The fault of a bare kind, with its defaults ({@code protocol_error} -32603, {@code rate_limited} 1 s). */
    public static ToolFault of(Kind kind) {
        return switch (kind) {
            case PROTOCOL_ERROR -> protocolError(DEFAULT_PROTOCOL_ERROR);
            case RATE_LIMITED -> rateLimited(DEFAULT_RETRY_AFTER);
            default -> new ToolFault(kind, Duration.ZERO);
        };
    }

    /** {@code {slow: delay}}. */
    public static ToolFault slow(Duration delay) {
        return new ToolFault(Kind.SLOW, delay);
    }

    /** {@code {slow: delay, progress: n}}. */
    public static ToolFault slow(Duration delay, int progress) {
        return new ToolFault(Kind.SLOW, delay, 0, progress);
    }

    /** {@code {protocol_error: code}}. */
    public static ToolFault protocolError(long code) {
        return new ToolFault(Kind.PROTOCOL_ERROR, Duration.ZERO, code, 0);
    }

    /** {@code {rate_limited: retryAfter}}. */
    public static ToolFault rateLimited(Duration retryAfter) {
        return new ToolFault(Kind.RATE_LIMITED, retryAfter, 0, 0);
    }

    /** The kind's id, as the yaml and the reports write it. */
    public String id() {
        return kind.id();
    }

    /** What a tool fault does to one execution. */
    public enum Kind {
        /** The execution succeeds (what {@code none} in the list and every execution past its end meet). */
        NONE("none", Reach.EVERY),
        /** The tool throws, having done nothing (an MCP tool answers a result with {@code isError: true}). */
        ERROR("error", Reach.TOOL),
        /** The tool does not answer before its timeout runs out on the virtual clock, and did nothing. */
        TIMEOUT("timeout", Reach.TOOL),
        /** The tool answers late on the virtual clock. */
        SLOW("slow", Reach.EVERY),
        /** The tool's result breaks its declared {@code output_schema}. */
        INVALID_RESULT("invalid_result", Reach.TOOL),
        /** The tool did its work, then its caller saw a timeout: the ambiguous case. */
        TIMEOUT_AFTER_COMMIT("timeout_after_commit", Reach.TOOL),
        /** The MCP server answers the request with a JSON-RPC error. */
        PROTOCOL_ERROR("protocol_error", Reach.MCP),
        /** The MCP server never answers: the client's request timeout runs out. */
        HANG("hang", Reach.MCP),
        /** The MCP server ran the request, then lost the session: the client meets a 404 until it initializes. */
        SESSION_EXPIRED("session_expired", Reach.MCP),
        /** The MCP server ran the request, then exited (or its connection reset) before answering. */
        SERVER_EXIT("server_exit", Reach.MCP),
        /** The MCP server answers 429 with {@code Retry-After}, having done nothing. */
        RATE_LIMITED("rate_limited", Reach.MCP),
        /** The MCP server sends {@code notifications/tools/list_changed} before its answer. */
        TOOLS_CHANGED("tools_changed", Reach.MCP);

        /** Where a kind may be written. */
        private enum Reach {
            /** In {@code tool_faults:} of any tool and in {@code mcp_faults:}. */
            EVERY,
            /** In {@code tool_faults:} only. */
            TOOL,
            /** Only for MCP: in {@code tool_faults:} of a tool with {@code server:}, and in {@code mcp_faults:}. */
            MCP
        }

        private final String id;
        private final Reach reach;

        Kind(String id, Reach reach) {
            this.id = id;
            this.reach = reach;
        }

        public String id() {
            return id;
        }

        /** Whether only a tool served by an MCP server, or an MCP server's session, can meet it. */
        public boolean mcpOnly() {
            return reach == Reach.MCP;
        }

        /** Whether a session-level {@code mcp_faults:} entry may be of this kind. */
        public boolean sessionLevel() {
            return reach != Reach.TOOL;
        }

        /** The ids of the kinds a local tool can meet, in the order the docs list them. */
        public static List<String> ids() {
            return Arrays.stream(values()).filter(k -> !k.mcpOnly()).map(Kind::id).toList();
        }

        /** The ids of every kind, which a tool served by an MCP server can meet. */
        public static List<String> mcpIds() {
            return Arrays.stream(values()).map(Kind::id).toList();
        }

        /** The ids of the kinds an {@code mcp_faults:} entry can be. */
        public static List<String> sessionIds() {
            return Arrays.stream(values()).filter(Kind::sessionLevel).map(Kind::id).toList();
        }

        /** The kind with {@code id}, or {@code null}. */
        public static Kind of(String id) {
            for (Kind k : values()) {
                if (k.id.equals(id)) {
                    return k;
                }
            }
            return null;
        }
    }
}
