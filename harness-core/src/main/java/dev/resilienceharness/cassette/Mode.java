package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** How a cassette store answers a request (docs recording.md). */
@API(status = INTERNAL, since = "0.1.0")
public enum Mode {
    /** Answer from cassettes only; a miss is a {@link CassetteMiss}. */
    REPLAY("replay"),
    /** Call through and write every exchange. */
    RECORD("record"),
    /** Replay what exists and record only misses. */
    RECORD_MISSING("record-missing");

    private final String name;

    Mode(String name) {
        this.name = name;
    }

    /** The spelling users give in {@code -Dresilience.mode}. */
    public String userName() {
        return name;
    }

    /** The mode for a user's spelling, or {@code null} when there is none. */
    public static Mode fromUser(String text) {
        for (Mode m : values()) {
            if (m.name.equals(text)) {
                return m;
            }
        }
        return null;
    }
}
