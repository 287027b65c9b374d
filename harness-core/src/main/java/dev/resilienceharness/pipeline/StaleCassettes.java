package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.drift.CassetteAge;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.apiguardian.api.API;

/** How the cassette goals report cassettes older than {@code drift.max_age}: warnings, or errors with failOnStale. */
@API(status = INTERNAL, since = "0.1.0")
public final class StaleCassettes {

    private StaleCassettes() {
    }

    /** Logs each stale cassette and returns how many there are, counted only when they fail the build. */
    public static int report(HarnessConfig config, boolean failOnStale, RunLog log) throws RunError {
        List<String> stale;
        try {
            stale = CassetteAge.stale(config, Instant.now());
        } catch (IOException e) {
            throw new RunError(config.cassettes() + ": cannot list the cassette folder: "
                    + e.getMessage(), e);
        }
        for (String line : stale) {
            if (failOnStale) {
                log.error(line);
            } else {
                log.warn(line);
            }
        }
        return failOnStale ? stale.size() : 0;
    }

    /** Fails the goal when {@link #report} counted stale cassettes. */
    public static void fail(String goal, int stale) throws RunFailure {
        if (stale > 0) {
            throw new RunFailure("resilience:" + goal + ": " + stale + (stale == 1 ? " cassette is" : " cassettes"
                    + " are") + " older than drift.max_age (-Dresilience.failOnStale=true); see the lines above");
        }
    }
}
