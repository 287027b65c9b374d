package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.incremental.CheckRecord;
import dev.resilienceharness.incremental.InputDigest;
import dev.resilienceharness.run.PhaseTime;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What the {@code check} goal learns of its last check before it loads the yaml: the record in the output directory
 * ({@link CheckRecord}), and whether what it names is unchanged, in which case that result is delivered again.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class LastCheck {

    /** The file in the output directory that remembers the last check. */
    public static final String RECORD = "check-record.json";

    private final RunLog log;
    private final Path yaml;
    private final Path recordFile;
    private final String identity;
    private CheckRecord earlier;
    private String earlierInputsNow;

    /**
     * @param identity the engine's jars and the options that change a check's outcome ({@link #identity}), or
     *                 {@code null} when nothing is remembered
     */
    public LastCheck(RunLog log, Path yaml, Path outputDirectory, String identity) {
        this.log = log;
        this.yaml = yaml;
        this.recordFile = outputDirectory.resolve(RECORD);
        this.identity = identity;
    }

    /**
     * Delivers the last check's result again when nothing it read has changed, and says so; otherwise keeps what it
     * learnt for {@link #options}.
     *
     * @param baseDir the project's folder, against which the record's file is named
     * @throws RunFailure when the result delivered again fails the build
     */
    public boolean deliveredAgain(Path baseDir, boolean failOnViolation) throws RunError, RunFailure {
        if (identity == null) {
            return false;
        }
        try {
            earlier = CheckRecord.read(recordFile);
        } catch (IOException e) {
            log.warn(recordFile + ": ignoring the last check's record, which cannot be read (" + e.getMessage()
                    + "); this check runs in full and writes it again");
            return false;
        }
        if (earlier == null) {
            return false;
        }
        PhaseTime digest = PhaseTime.start(log);
        earlierInputsNow = CheckRun.inputs(identity, yaml, earlier.cassettes(), earlier.baseline());
        log.debug(digest.done("Took the digest of what the last check read"));
        if (!earlierInputsNow.equals(earlier.inputs())) {
            log.debug(recordFile + ": the yaml, a cassette, the baseline or the plugin changed; checking in full");
            return false;
        }
        log.info("Nothing changed since the last check (" + baseDir.relativize(recordFile) + "): "
                + count(earlier.cassetteCount(), "cassette") + " checked, " + count(earlier.scenarioCount(), "scenario")
                + " run, " + count(earlier.scannedFiles(), "cassette") + " scanned for secrets with "
                + count(earlier.findings(), "finding") + ". -Dresilience.incremental=false checks again");
        earlier.warnings().forEach(log::warn);
        Verdict.deliver(log, "check", earlier.violations(), failOnViolation, Verdict.REPORT_HINT);
        return true;
    }

    /** The check's options, with what {@link #deliveredAgain} learnt of the last record. */
    public CheckRun.Options options(boolean failOnOrphans, boolean failOnViolation, boolean failOnStale) {
        boolean known = earlierInputsNow != null;
        return new CheckRun.Options(yaml, recordFile, failOnOrphans, failOnViolation, failOnStale, identity,
                known ? earlier.cassettes() : null, known ? earlier.baseline() : null, earlierInputsNow);
    }

    /**
     * What a check's outcome depends on besides the files it reads: the options that change it, the jars of the
     * caller's {@code plugin} class and of this engine by content, and the versions of the {@code libraries} they run
     * with; {@code null} when a class does not come from a jar (then nothing is remembered).
     */
    public static String identity(RunLog log, boolean failOnOrphans, int runs, String loop, String shard,
            List<String> libraries, Class<?> plugin) {
        PhaseTime digests = PhaseTime.start(log);
        String identity = identity(log, "failOnOrphans=" + failOnOrphans + ";runs=" + runs + ";loop="
                + (loop == null ? "" : loop) + ";shard=" + (shard == null ? "" : shard), libraries, plugin,
                CheckRecord.class);
        log.debug(digests.done("Took the digests of the plugin's jars"));
        return identity;
    }

    static String identity(RunLog log, String options, List<String> libraries, Class<?>... classes) {
        StringBuilder sb = new StringBuilder(options);
        for (Class<?> c : classes) {
            String digest = jarDigest(c);
            if (digest == null) {
                log.debug(c.getName() + " is not loaded from a jar whose directory can be read; the check is not"
                        + " remembered");
                return null;
            }
            sb.append(';').append(digest);
        }
        List<String> sorted = new ArrayList<>(libraries);
        sorted.sort(null);
        return sb.append(';').append(String.join(",", sorted)).toString();
    }

    private static String jarDigest(Class<?> c) {
        CodeSource source = c.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            Path jar = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(jar) ? InputDigest.ofJar(jar) : null;
        } catch (URISyntaxException | IllegalArgumentException | IOException e) {
            return null;
        }
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
