package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.shard.ShardMessages;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/** The secret scan of the cassettes as the goals make it: on its own, or fed by the cassette pass. */
@API(status = INTERNAL, since = "0.1.0")
public final class SecretsPass {

    private SecretsPass() {
    }

    /** Scans the cassettes (of {@code shard}), turning a bad allow-list or baseline into an error naming it. */
    public static SecretsInCassettes.Report scan(RunLog log, HarnessConfig config, Shard shard,
            boolean reportUnreadable) throws RunError {
        SecretsInCassettes.Report report = logged(log, translated(config,
                () -> SecretsInCassettes.scan(config, reportUnreadable, shard::ownsFile)));
        logShard(log, config, shard);
        return report;
    }

    /** Says which of the folder's cassettes a shard looks at; says nothing for the whole work. */
    public static void logShard(RunLog log, HarnessConfig config, Shard shard) throws RunError {
        if (shard.whole()) {
            return;
        }
        List<Path> all = translated(config, () -> CassetteStore.replaying(config.cassettes(),
                VolatilePaths.of(config.volatilePaths())).files());
        int mine = (int) all.stream().filter(shard::ownsFile).count();
        log.info(ShardMessages.cassettes(shard, mine, all.size()));
    }

    /** Starts a scan that another pass feeds, with the errors of {@link #scan}. */
    static SecretsInCassettes.Scan start(HarnessConfig config) throws RunError {
        return translated(config, () -> SecretsInCassettes.start(config));
    }

    /** Something that reads the cassettes or the redaction settings. */
    private interface Reading<T> {
        T get() throws IOException;
    }

    private static <T> T translated(HarnessConfig config, Reading<T> reading) throws RunError {
        try {
            return reading.get();
        } catch (IOException e) {
            throw new RunError("cannot scan " + config.cassettes() + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new RunError(config.file() + ": " + e.getMessage());
        }
    }

    /** Logs how many files were scanned and what was found. */
    static SecretsInCassettes.Report logged(RunLog log, SecretsInCassettes.Report report) {
        log.info("Scanned " + report.files() + " cassettes for secrets: " + report.findings().size()
                + (report.findings().size() == 1 ? " finding" : " findings"));
        return report;
    }
}
