package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Redaction could not make a cassette clean: a re-scan of what would have been written still finds secrets, so
 * nothing is written (fail closed). The message lists each remaining finding, masked.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class RedactionFailedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<Finding> remaining;

    public RedactionFailedException(List<Finding> remaining) {
        super(format(remaining));
        this.remaining = List.copyOf(remaining);
    }

    private static String format(List<Finding> remaining) {
        StringBuilder sb = new StringBuilder("redaction left ").append(remaining.size())
                .append(remaining.size() == 1 ? " secret" : " secrets")
                .append(" in the cassette, so it was not written:");
        for (Finding f : remaining) {
            sb.append("\n  ").append(f.ruleId()).append(" at ").append(f.jsonPath()).append(": ").append(f.masked())
                    .append(" (fingerprint ").append(f.fingerprint()).append(')');
        }
        return sb.append("\nRemove the value from the request, or accept it in redaction.allow if it is not a "
                + "secret.").toString();
    }

    /** The findings a re-scan of the redacted cassette still reports. */
    public List<Finding> remaining() {
        return remaining;
    }
}
