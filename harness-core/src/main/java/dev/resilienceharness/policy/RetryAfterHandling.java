package dev.resilienceharness.policy;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** What a loop does with a quota rejection that states a {@code Retry-After} delay. */
@API(status = STABLE, since = "0.1.0")
public enum RetryAfterHandling {
    /** Wait the stated delay (when within {@code max_retry_after}) and retry once. */
    RETRY_ONCE("retry_once"),
    /** Stop the run at once, as for a rejection without the header. */
    STOP("stop");

    private final String yamlName;

    RetryAfterHandling(String yamlName) {
        this.yamlName = yamlName;
    }

    /** The spelling used in {@code resilience.yaml}. */
    public String yamlName() {
        return yamlName;
    }

    /** The value for a yaml spelling, or {@code null} when there is none. */
    public static RetryAfterHandling fromYaml(String text) {
        for (RetryAfterHandling h : values()) {
            if (h.yamlName.equals(text)) {
                return h;
            }
        }
        return null;
    }
}
