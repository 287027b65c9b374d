package dev.resilienceharness.loop;

/** How an op ended. */
public enum Status {
    OK("ok"),
    DEGRADED("degraded"),
    STOPPED("stopped");

    private final String jsonName;

    Status(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The spelling in outcome records and {@code expect} lists. */
    public String jsonName() {
        return jsonName;
    }

    /** The status for a spelling, or {@code null} when there is none. */
    public static Status fromJson(String text) {
        for (Status s : values()) {
            if (s.jsonName.equals(text)) {
                return s;
            }
        }
        return null;
    }
}
