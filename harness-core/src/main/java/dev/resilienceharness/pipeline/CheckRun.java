package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.incremental.CheckRecord;
import dev.resilienceharness.incremental.InputDigest;
import dev.resilienceharness.incremental.PassDigest;
import dev.resilienceharness.run.PhaseTime;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * The {@code check} goal's work on a loaded config, the same in Maven's JVM and in a JVM of its own
 * (the fork package): one pass, the record that remembers it, the stale cassettes, the verdict.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class CheckRun {

    /**
     * The goal's options and what it learnt before the yaml was loaded.
     *
     * @param identity         the plugin's jars and the options that change a check's outcome, or {@code null} when
     *                         nothing is remembered
     * @param earlierCassettes the cassette folder the last record names, or {@code null} without one
     * @param earlierBaseline  the baseline the last record names, or {@code null}
     * @param earlierInputsNow the digest of what the last record names, taken now, or {@code null}
     */
    public record Options(Path yaml, Path recordFile, boolean failOnOrphans, boolean failOnViolation,
            boolean failOnStale, String identity, Path earlierCassettes, Path earlierBaseline, String earlierInputsNow) {
    }

    /** Makes the pass. */
    public interface Pass {

        /**
         * @param digest the digest the record remembers, for the pass to take as it reads the cassettes (handed to
         *               {@link dev.resilienceharness.invariant.CassetteIntegrity}), or {@code null} when nothing is to
         *               be remembered or the digest was taken already
         */
        CheckPass.Result run(HarnessConfig config, PassDigest digest) throws RunError;
    }

    private CheckRun() {
    }

    /**
     * Checks {@code config}.
     *
     * @param ranEarlier whether an earlier goal of this build has made the pass already
     */
    public static void run(RunLog log, Options options, HarnessConfig config, boolean ranEarlier, Pass pass)
            throws RunError, RunFailure {
        run(log, options, config, ranEarlier, () -> InputDigest.of(options.yaml()), pass);
    }

    /**
     * As {@link #run(RunLog, Options, HarnessConfig, boolean, Pass)}, with the yaml's digest, when a record needs one,
     * from {@code yamlDigest}: of the bytes {@code config} was loaded from ({@link InputDigest#ofRead}), or of the
     * file as it is now, which is before the pass reads anything.
     */
    public static void run(RunLog log, Options options, HarnessConfig config, boolean ranEarlier,
            Supplier<String> yamlDigest, Pass pass) throws RunError, RunFailure {
        // A pass an earlier goal of this build made read the files before this digest could be taken: it is used,
        // but not remembered, since a file changed in between would pair a new digest with an old result.
        // A yaml that reads another's requests (requests_from) depends on a file the digest does not name.
        // Under drift.max_age the verdict depends on the date as well as the files: such a check is not remembered.
        String identity = config.usesBuiltinLoop() && !config.readsOtherFiles() && !ranEarlier
                && config.drift().maxAge() == null ? options.identity() : null;
        String inputs = null;
        PassDigest digest = null;
        if (identity != null) {
            boolean sameFiles = options.earlierInputsNow() != null
                    && config.cassettes().equals(options.earlierCassettes())
                    && Objects.equals(options.earlierBaseline(), config.redaction().baseline());
            if (sameFiles) {
                // Maven's JVM took it before the check read anything: a file changed while it runs makes the next
                // check run in full.
                inputs = options.earlierInputsNow();
            } else {
                // Otherwise the pass takes it from the bytes it reads, without reading the cassettes a second time.
                digest = PassDigest.begin(identity, options.yaml(), yamlDigest.get(), config.cassettes(),
                        config.redaction().baseline());
            }
        }
        CheckPass.Result result = pass.run(config, digest);
        if (digest != null) {
            PhaseTime taking = PhaseTime.start(log);
            inputs = digest.inputs();
            log.debug(taking.done("Took the digest of what the check read"));
        }
        if (inputs != null) {
            remember(log, options.recordFile(), new CheckRecord(inputs, config.cassettes(),
                    config.redaction().baseline(), result.cassettes().checked(), result.scenarios().size(),
                    result.secrets().files(), result.secrets().findings().size(), result.warnings(),
                    result.violations()));
        }
        int stale = StaleCassettes.report(config, options.failOnStale(), log);
        Verdict.deliver(log, "check", result.violations(), options.failOnViolation(), Verdict.REPORT_HINT);
        StaleCassettes.fail("check", stale);
    }

    /** The digest of what a record names, with {@code identity}. */
    public static String inputs(String identity, Path yaml, Path cassettes, Path baseline) throws RunError {
        try {
            return CheckRecord.inputs(identity, yaml, cassettes, baseline);
        } catch (IOException e) {
            throw new RunError("cannot read what the check reads: " + e.getMessage(), e);
        }
    }

    private static void remember(RunLog log, Path file, CheckRecord record) {
        try {
            record.write(file);
        } catch (IOException e) {
            log.warn(file + ": cannot remember this check (" + e.getMessage() + "); the next one runs in full too");
        }
    }
}
