package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CheckRecord;
import dev.resilienceharness.invariant.InputDigest;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Checks every invariant in one pass: cassette integrity, then call budget, determinism, partial work, bounded
 * waiting and expectations for every scenario, then secrets in cassettes.
 *
 * <p>With the built-in loop the result is a function of the yaml, the cassettes, the baseline and the plugin, so it
 * is remembered in {@code check-record.json} in the output directory beside a digest of all of them
 * ({@link CheckRecord}); while the digest is the same, the next check delivers that result again without loading the
 * yaml or running anything. A team loop's runs depend on its code, so a check that runs one is never remembered.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class CheckMojo extends AbstractScenarioMojo {

    /** The file in the output directory that remembers the last check. */
    static final String RECORD = "check-record.json";

    /** Skips this goal only. */
    @Parameter(property = "resilience.check.skip", defaultValue = "false")
    private boolean skipGoal;

    /** Fails the build on a violation; with false, violations are logged as warnings. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "true")
    private boolean failOnViolation;

    /** Treats cassettes that no scenario op uses as violations instead of warnings. */
    @Parameter(property = "resilience.failOnOrphans", defaultValue = "false")
    private boolean failOnOrphans;

    /** Fails the build when a cassette is older than {@code drift.max_age}; without it, that is a warning. */
    @Parameter(property = "resilience.failOnStale", defaultValue = "false")
    private boolean failOnStale;

    /**
     * Delivers the last check's result again when nothing it read has changed (compared by content); with false,
     * every check runs in full and nothing is remembered.
     */
    @Parameter(property = "resilience.incremental", defaultValue = "true")
    private boolean incremental;

    /** The plugin's own dependencies as the build resolved them (a pom may override their versions). */
    @Parameter(defaultValue = "${plugin.artifacts}", readonly = true, required = true)
    private List<Artifact> pluginArtifacts;

    /** The record read before the yaml was loaded, and the digest of the inputs it names, when there was one. */
    private CheckRecord earlier;
    private String earlierInputsNow;
    private String engineAndOptions;

    @Override
    protected String goal() {
        return "check";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected boolean reusedEarlierResult() throws MojoExecutionException, MojoFailureException {
        String identity = identity();
        if (identity == null) {
            return false;
        }
        Path file = recordFile();
        try {
            earlier = CheckRecord.read(file);
        } catch (IOException e) {
            getLog().warn(file + ": ignoring the last check's record, which cannot be read (" + e.getMessage()
                    + "); this check runs in full and writes it again");
            return false;
        }
        if (earlier == null) {
            return false;
        }
        earlierInputsNow = inputs(identity, earlier.cassettes(), earlier.baseline());
        if (!earlierInputsNow.equals(earlier.inputs())) {
            getLog().debug(file + ": the yaml, a cassette, the baseline or the plugin changed; checking in full");
            return false;
        }
        getLog().info("Nothing changed since the last check (" + project.getBasedir().toPath().relativize(file)
                + "): " + count(earlier.cassetteCount(), "cassette") + " checked, "
                + count(earlier.scenarioCount(), "scenario") + " run, " + count(earlier.scannedFiles(), "cassette")
                + " scanned for secrets with " + count(earlier.findings(), "finding")
                + ". -Dresilience.incremental=false checks again");
        earlier.warnings().forEach(getLog()::warn);
        Verdict.deliver(getLog(), goal(), earlier.violations(), failOnViolation, Verdict.REPORT_HINT);
        return true;
    }

    @Override
    protected void run(HarnessConfig config) throws MojoExecutionException, MojoFailureException {
        // A pass an earlier goal of this build made read the files before this digest could be taken: it is used,
        // but not remembered, since a file changed in between would pair a new digest with an old result.
        // A yaml that reads another's requests (requests_from) depends on a file the digest does not name.
        // Under drift.max_age the verdict depends on the date as well as the files: such a check is not remembered.
        String identity = config.usesBuiltinLoop() && !config.readsOtherFiles()
                && !FullCheck.ranEarlier(this, config, failOnOrphans) && config.drift().maxAge() == null
                ? identity() : null;
        String inputs = null;
        if (identity != null) {
            // Taken before the check reads anything: a file changed while it runs makes the next check run in full.
            boolean sameFiles = earlierInputsNow != null && earlier.cassettes().equals(config.cassettes())
                    && Objects.equals(earlier.baseline(), config.redaction().baseline());
            inputs = sameFiles ? earlierInputsNow
                    : inputs(identity, config.cassettes(), config.redaction().baseline());
        }
        FullCheck.Result result = FullCheck.run(this, config, failOnOrphans, true);
        if (inputs != null) {
            remember(new CheckRecord(inputs, config.cassettes(), config.redaction().baseline(),
                    result.cassettes().checked(), result.scenarios().size(), result.secrets().files(),
                    result.secrets().findings().size(), result.warnings(), result.violations()));
        }
        int stale = StaleCassettes.report(config, failOnStale, getLog());
        Verdict.deliver(getLog(), goal(), result.violations(), failOnViolation, Verdict.REPORT_HINT);
        StaleCassettes.fail(goal(), stale);
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private void remember(CheckRecord record) {
        Path file = recordFile();
        try {
            record.write(file);
        } catch (IOException e) {
            getLog().warn(file + ": cannot remember this check (" + e.getMessage() + "); the next one runs in full"
                    + " too");
        }
    }

    private Path recordFile() {
        return outputDirectory.toPath().resolve(RECORD);
    }

    private String inputs(String identity, Path cassettes, Path baseline) throws MojoExecutionException {
        try {
            return CheckRecord.inputs(identity, config.toPath(), cassettes, baseline);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot read what the check reads: " + e.getMessage(), e);
        }
    }

    /**
     * The plugin's and the engine's jars by content, the versions of the libraries they run with, and the options that
     * change a check's outcome; {@code null} when remembering is off or the classes do not come from jars (then nothing
     * is remembered).
     */
    private String identity() {
        if (!incremental) {
            return null;
        }
        if (engineAndOptions == null) {
            engineAndOptions = computeIdentity();
        }
        return engineAndOptions;
    }

    private String computeIdentity() {
        StringBuilder sb = new StringBuilder("failOnOrphans=").append(failOnOrphans).append(";runs=").append(runs)
                .append(";loop=").append(loop == null ? "" : loop).append(";shard=").append(shard == null ? "" : shard);
        for (Class<?> c : new Class<?>[] {CheckMojo.class, CheckRecord.class}) {
            String digest = jarDigest(c);
            if (digest == null) {
                getLog().debug(c.getName() + " is not loaded from a jar; the check is not remembered");
                return null;
            }
            sb.append(';').append(digest);
        }
        List<String> libraries = new ArrayList<>();
        for (Artifact a : pluginArtifacts) {
            libraries.add(a.getGroupId() + ":" + a.getArtifactId() + ":" + a.getVersion());
        }
        Collections.sort(libraries);
        sb.append(';').append(String.join(",", libraries));
        return sb.toString();
    }

    private static String jarDigest(Class<?> c) {
        CodeSource source = c.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            Path jar = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(jar) ? InputDigest.of(jar) : null;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }
}
