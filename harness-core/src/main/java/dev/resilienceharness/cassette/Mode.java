package dev.resilienceharness.cassette;

/** How a cassette store answers a request (docs recording.md). */
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
