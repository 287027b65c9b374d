package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigFile;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.scenario.StallBound;
import dev.resilienceharness.shard.Shard;
import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What every caller of the engine starts with, Maven's goals or plain Java: loading a goal's yaml, and the report of
 * a whole project in one call. The goals' own work is in the {@code *Run} classes of this package.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class Harness {

    private Harness() {
    }

    /**
     * The config in {@code yaml}, with {@code loop} (may be {@code null}) in place of the yaml's loop, and without the
     * scenarios that are fault plans for {@code serve} only, each named in an info line, unless {@code keepServeOnly};
     * a problem in the yaml is an error that names the file, line and key.
     */
    public static HarnessConfig load(RunLog log, Path yaml, String loop, String goal, boolean keepServeOnly)
            throws RunError {
        HarnessConfig loaded = ConfigLoading.load(yaml, loop, log);
        return keepServeOnly ? loaded : ScenarioScope.forGoal(loaded, goal, log);
    }

    /**
     * Whether a goal runs on the config {@code yaml} of the project in {@code baseDir}: not in an aggregator module
     * without the default {@code resilience.yaml}, which is skipped. A config the build named that cannot be read, a
     * config that is not a regular file, and an output directory (may be {@code null}) inside the cassette folder are
     * errors that say what to do.
     *
     * @param buildDirectory the project's build directory (may be {@code null}), where reports belong
     */
    public static boolean runsOn(Path yaml, Path baseDir, boolean aggregator, Path outputDirectory,
            Path buildDirectory) throws RunError {
        boolean named = baseDir == null || !yaml.toAbsolutePath().normalize()
                .equals(baseDir.resolve("resilience.yaml").toAbsolutePath().normalize());
        try {
            if (ConfigFile.check(yaml, named, aggregator) == ConfigFile.Verdict.SKIP) {
                return false;
            }
        } catch (ConfigException e) {
            throw new RunError(e.getMessage());
        }
        String misplaced = outputDirectory == null ? null
                : ConfigFile.outputProblem(yaml, outputDirectory, buildDirectory);
        if (misplaced != null) {
            throw new RunError(misplaced);
        }
        return true;
    }

    /** The message of a goal that failed on a bug: what to report. */
    public static String unexpected(String goal, RuntimeException e) {
        return ConfigLoading.unexpected(goal, e);
    }

    /** The shard {@code shard} names (such as {@code 2/8}), or the whole work when it is {@code null}. */
    public static Shard shard(String shard) throws RunError {
        try {
            return shard == null ? Shard.WHOLE : Shard.parse(shard);
        } catch (IllegalArgumentException e) {
            throw new RunError(e.getMessage());
        }
    }

    /**
     * Checks every invariant of the project whose yaml is {@code yaml}, with the team's loop (if any) on
     * {@code testClasspath}, and writes the reports to {@code outputDirectory} as {@code mvn resilience:report} does
     * with its defaults: the whole work, two runs of each scenario, orphans as warnings, not failing on violations.
     *
     * @param baseDir the project's folder, against which the reports name files
     */
    public static ReportWriter.Written report(RunLog log, Path yaml, Path baseDir, Path outputDirectory,
            List<String> testClasspath) throws RunError, RunFailure {
        HarnessConfig config = load(log, yaml, null, "report", false);
        ScenarioRunner runner = new ScenarioRunner(log, "report", Shard.WHOLE, 2, StallBound.of(null),
                () -> testClasspath);
        return ReportRun.run(log, new ReportRun.Options(outputDirectory, baseDir, Shard.WHOLE, 2, false, false),
                config, () -> CheckPass.run(runner, config, false, false, null, null));
    }
}
