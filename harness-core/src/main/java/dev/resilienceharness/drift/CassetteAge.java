package dev.resilienceharness.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The cassettes older than {@code drift.max_age}, by their {@code recorded_at}. A cassette without one (recorded
 * before the key existed, or by the Python harness) has no known age and is never stale; an unreadable one is left
 * to {@code verify-cassettes}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class CassetteAge {

    private CassetteAge() {
    }

    /**
     * One line per stale cassette, in file-name order; empty without {@code max_age}.
     *
     * @param now the time to measure ages against
     */
    public static List<String> stale(HarnessConfig config, Instant now) throws IOException {
        Duration maxAge = config.drift().maxAge();
        List<String> lines = new ArrayList<>();
        if (maxAge == null) {
            return lines;
        }
        VolatilePaths volatilePaths = VolatilePaths.of(config.volatilePaths());
        CassetteReader reader = new CassetteReader(config.cassettes(), volatilePaths);
        Path base = config.file().toAbsolutePath().getParent();
        for (Path file : CassetteStore.replaying(config.cassettes(), volatilePaths).files()) {
            Cassette c;
            try {
                c = reader.read(file);
            } catch (CassetteException e) {
                continue;
            }
            if (c.recordedAt() != null && Duration.between(c.recordedAt(), now).compareTo(maxAge) > 0) {
                lines.add(DriftMessages.stale(base.relativize(file.toAbsolutePath()).toString(), c.recordedAt(),
                        Duration.between(c.recordedAt(), now), maxAge));
            }
        }
        return lines;
    }
}
