package dev.resilienceharness.loop;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** How an op ended. */
@API(status = STABLE, since = "0.1.0")
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
