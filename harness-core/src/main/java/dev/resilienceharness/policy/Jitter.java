package dev.resilienceharness.policy;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * How a loop randomises its transient backoff ({@code policy.jitter}), which decides the shortest wait before a retry
 * that still keeps to the policy. The built-in loop never jitters: it always waits the full backoff.
 */
@API(status = STABLE, since = "0.1.0")
public enum Jitter {
    /** Wait exactly {@code min(base_delay*2^(n-1), max_delay)}. */
    NONE("none"),
    /** Wait a random time between zero and the backoff ("full jitter"): any wait up to it keeps to the policy. */
    FULL("full"),
    /** Wait half the backoff plus a random time up to the other half ("equal jitter"). */
    EQUAL("equal");

    private final String yamlName;

    Jitter(String yamlName) {
        this.yamlName = yamlName;
    }

    /** The spelling used in {@code resilience.yaml}. */
    public String yamlName() {
        return yamlName;
    }

    /** The shortest wait this jitter allows for a backoff of {@code backoff}. */
    public Duration lowerBound(Duration backoff) {
        return switch (this) {
            case NONE -> backoff;
            case FULL -> Duration.ZERO;
            case EQUAL -> backoff.dividedBy(2);
        };
    }

    /** The value for a yaml spelling, or {@code null} when there is none. */
    public static Jitter fromYaml(String text) {
        for (Jitter j : values()) {
            if (j.yamlName.equals(text)) {
                return j;
            }
        }
        return null;
    }
}
