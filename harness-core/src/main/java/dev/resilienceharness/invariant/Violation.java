package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One broken invariant: where (scenario or file, op), what (invariant, bound, actual), and what to do.
 *
 * @param invariant the invariant broken
 * @param subject   the scenario name, or the file for cassette and secret findings
 * @param op        the op concerned, or {@code null}
 * @param bound     the bound, as shown to the user (e.g. {@code 3 calls}), or {@code null}
 * @param actual    the actual figure (e.g. {@code 5 calls}), or {@code null}
 * @param message   what happened, one sentence
 * @param hint      what to do next, one sentence
 */
@API(status = MAINTAINED, since = "0.1.0")
public record Violation(Invariant invariant, String subject, String op, String bound, String actual, String message,
        String hint) {

    public Violation {
        Objects.requireNonNull(invariant, "invariant");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(message, "message");
    }

    /** The one-line form printed on {@code [ERROR]} lines and in reports. */
    public String line() {
        StringBuilder sb = new StringBuilder();
        sb.append(subject).append(" [").append(invariant.id()).append(']');
        if (op != null) {
            sb.append(" op '").append(op).append('\'');
        }
        sb.append(": ").append(message);
        if (bound != null || actual != null) {
            sb.append(" (bound ").append(bound == null ? "-" : bound).append(", actual ")
                    .append(actual == null ? "-" : actual).append(')');
        }
        if (hint != null) {
            sb.append(". ").append(hint);
        }
        return sb.toString();
    }
}
