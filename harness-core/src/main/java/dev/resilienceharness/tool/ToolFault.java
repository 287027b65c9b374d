package dev.resilienceharness.tool;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One entry of a scenario's {@code tool_faults:} list for a tool (docs tools.md), consumed one per execution of that
 * tool.
 *
 * @param kind  what happens to the execution
 * @param delay for {@link Kind#SLOW}, how late the tool answers; else {@link Duration#ZERO}
 */
@API(status = INTERNAL, since = "0.1.0")
public record ToolFault(Kind kind, Duration delay) {

    /** An execution that meets no fault. */
    public static final ToolFault NONE = new ToolFault(Kind.NONE, Duration.ZERO);

    public ToolFault {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(delay, "delay");
    }

    /** The fault of a bare kind. */
    public static ToolFault of(Kind kind) {
        return new ToolFault(kind, Duration.ZERO);
    }

    /** {@code {slow: delay}}. */
    public static ToolFault slow(Duration delay) {
        return new ToolFault(Kind.SLOW, delay);
    }

    /** The kind's id, as the yaml and the reports write it. */
    public String id() {
        return kind.id();
    }

    /** What a tool fault does to one execution. */
    public enum Kind {
        /** The execution succeeds (what {@code none} in the list and every execution past its end meet). */
        NONE("none"),
        /** The tool throws, having done nothing. */
        ERROR("error"),
        /** The tool does not answer before its timeout runs out on the virtual clock, and did nothing. */
        TIMEOUT("timeout"),
        /** The tool answers late on the virtual clock. */
        SLOW("slow"),
        /** The tool's result breaks its declared {@code output_schema}. */
        INVALID_RESULT("invalid_result"),
        /** The tool did its work, then its caller saw a timeout: the ambiguous case. */
        TIMEOUT_AFTER_COMMIT("timeout_after_commit");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        /** Every id, in the order the docs list them. */
        public static List<String> ids() {
            return java.util.Arrays.stream(values()).map(Kind::id).toList();
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
