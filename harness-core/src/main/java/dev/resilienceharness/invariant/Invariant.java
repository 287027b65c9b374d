package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/** The invariants of docs invariants/, by the ids the reports use. */
@API(status = MAINTAINED, since = "0.1.0")
public enum Invariant {
    BUDGET("budget"),
    DETERMINISM("determinism"),
    PARTIAL_WORK("partial_work"),
    BOUNDED_WAIT("bounded_wait"),
    EXPECTATIONS("expectations"),
    CASSETTES("cassettes"),
    SECRETS("secrets"),
    SIDE_EFFECTS("side_effects");

    private final String id;

    Invariant(String id) {
        this.id = id;
    }

    /** The id in report.json and on the console. */
    public String id() {
        return id;
    }

    /** The invariant for an id, or {@code null} when there is none. */
    public static Invariant fromId(String id) {
        for (Invariant i : values()) {
            if (i.id.equals(id)) {
                return i;
            }
        }
        return null;
    }
}
