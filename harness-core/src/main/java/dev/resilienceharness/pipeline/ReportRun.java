package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.report.ReportAssembly;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.shard.ShardInputs;
import dev.resilienceharness.shard.ShardMarker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * The {@code report} goal's work on a loaded config: one pass, the reports it makes ({@link ReportAssembly}), the
 * marker of a shard, and the verdict, which fails only with {@code failOnViolation}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ReportRun {

    /**
     * The goal's options.
     *
     * @param outputDirectory where the reports go
     * @param baseDir         the project's folder, against which the reports name files
     * @param shard           the part of the work this report does
     */
    public record Options(Path outputDirectory, Path baseDir, Shard shard, int runs, boolean failOnOrphans,
            boolean failOnViolation) {
    }

    /** Makes the pass, with every scenario's full report. */
    public interface Pass {
        CheckPass.Result run() throws RunError;
    }

    private ReportRun() {
    }

    /** Makes {@code pass} over {@code config} and writes its reports. */
    public static ReportWriter.Written run(RunLog log, Options options, HarnessConfig config, Pass pass)
            throws RunError, RunFailure {
        Path out = options.outputDirectory();
        String inputs = shardInputs(options, config);
        CheckPass.Result result = pass.run();
        ShardMarker marker = inputs == null ? null : ShardMarker.of(options.shard(), inputs, config.scenarios(),
                result.cassettes().fingerprints(), config.cassettes());
        ReportWriter.Written written = ReportAssembly.write(log, config, out, options.baseDir(), result.scenarios(),
                result.cassettes(), result.secrets());
        if (marker != null) {
            try {
                log.info("Shard " + marker.shard() + " of the check: " + marker.write(out)
                        + "; merge the shards with mvn resilience:merge");
            } catch (IOException e) {
                throw new RunError(out + ": cannot write " + ShardMarker.FILE + ": " + e.getMessage(), e);
            }
        }
        log.info("Report: " + written.html().toUri());
        Verdict.deliver(log, "report", result.violations(), options.failOnViolation(), "see " + written.html());
        return written;
    }

    /**
     * A sharded report's inputs digest, taken before the check reads anything; {@code null} for the whole work. An
     * earlier marker in the folder is removed first, so that a folder never pairs it with other reports.
     */
    private static String shardInputs(Options options, HarnessConfig config) throws RunError {
        try {
            Files.deleteIfExists(options.outputDirectory().resolve(ShardMarker.FILE));
            if (options.shard().whole()) {
                return null;
            }
            return ShardInputs.digest(config, "runs=" + options.runs() + ";failOnOrphans=" + options.failOnOrphans()
                    + ";loop=" + config.loop());
        } catch (IOException e) {
            throw new RunError("cannot read what the check reads: " + e.getMessage(), e);
        }
    }
}
