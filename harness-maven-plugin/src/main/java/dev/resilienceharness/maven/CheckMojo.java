package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.incremental.CheckRecord;
import dev.resilienceharness.incremental.InputDigest;
import dev.resilienceharness.scenario.StallBound;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.slf4j.LoggerFactory;

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

    /**
     * Checks in a JVM of its own, as surefire tests in a forked JVM: a full check over thousands of cassettes is a
     * short run that the quick compiler serves better than Maven's JVM does (see the README's Goals and Speed).
     * With false, the check runs in Maven's JVM. A check whose result is remembered, or that reuses
     * the pass of an earlier {@code report} in the same build, starts no JVM.
     */
    @Parameter(property = "resilience.fork", defaultValue = "true")
    private boolean fork;

    /**
     * The forked JVM's options, separated by spaces. On Linux, {@link HugePages#OPTION} is added to them where the
     * kernel offers transparent huge pages, unless they name large or huge pages themselves ({@link HugePages}).
     */
    @Parameter(property = "resilience.fork.jvmArgs", defaultValue = ForkedCheck.DEFAULT_JVM_ARGS)
    private String forkJvmArgs;

    /**
     * Keeps a class-data archive of the forked JVM's classes in the local repository ({@link ClassArchive}), made by
     * the first check and mapped by every later one: about 0.2 s less per check. With false, none is made or used.
     */
    @Parameter(property = "resilience.fork.classArchive", defaultValue = "true")
    private boolean forkClassArchive;

    /** The local repository, where the class archives are kept. */
    @Parameter(defaultValue = "${settings.localRepository}", readonly = true)
    private String localRepository;

    /** The build, whose user properties ({@code -Dname=value}) the forked JVM gets as system properties. */
    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

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
        PhaseTime digest = PhaseTime.start(getLog());
        earlierInputsNow = inputs(identity, earlier.cassettes(), earlier.baseline());
        getLog().debug(digest.done("Took the digest of what the last check read"));
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
    protected boolean ranElsewhere() throws MojoExecutionException, MojoFailureException {
        if (!fork || FullCheck.ranEarlier(this, config.toPath(), failOnOrphans)) {
            return false;
        }
        Map<String, String> properties = new TreeMap<>();
        session.getUserProperties().forEach((k, v) -> properties.put(String.valueOf(k), String.valueOf(v)));
        if (stallTimeout != null) {
            // Set in the pom as well as by -D: the forked JVM reads it as the property. A bad one is named here.
            ScenarioRunner.stallBound(stallTimeout);
            properties.put(StallBound.PROPERTY, stallTimeout);
        }
        ForkedCheck.Request request = new ForkedCheck.Request(options(), loop, shard, runs, testClasspath(),
                properties, getLog().isDebugEnabled());
        Path java = Path.of(System.getProperty("java.home"), "bin",
                System.getProperty("os.name").startsWith("Windows") ? "java.exe" : "java");
        List<String> jvmArgs = HugePages.added(ForkedCheck.splitArgs(forkJvmArgs));
        List<String> classpath = forkClasspath();
        ClassArchive archive = forkClassArchive && localRepository != null
                ? ClassArchive.of(Path.of(localRepository, ClassArchive.FOLDER), java, jvmArgs, classpath) : null;
        ForkedCheck.launch(getLog(), java, jvmArgs, classpath, request, archive);
        return true;
    }

    /** The plugin's own jars, as its class realm has them, and the two jars Maven provides it. */
    private List<String> forkClasspath() throws MojoExecutionException {
        List<String> classpath = new ArrayList<>();
        if (!(CheckMojo.class.getClassLoader() instanceof URLClassLoader realm)) {
            throw new MojoExecutionException("resilience:check cannot tell its own classpath for its JVM;"
                    + " check in Maven's JVM with -Dresilience.fork=false");
        }
        try {
            for (URL url : realm.getURLs()) {
                classpath.add(Path.of(url.toURI()).toString());
            }
            // Maven's JVM gives the plugin these two: its API, and the logging facade the schema validator logs to.
            for (Class<?> provided : new Class<?>[] {Log.class, LoggerFactory.class}) {
                CodeSource source = provided.getProtectionDomain().getCodeSource();
                if (source != null && source.getLocation() != null) {
                    classpath.add(Path.of(source.getLocation().toURI()).toString());
                }
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new MojoExecutionException("resilience:check cannot tell its own classpath for its JVM ("
                    + e.getMessage() + "); check in Maven's JVM with -Dresilience.fork=false", e);
        }
        return classpath;
    }

    @Override
    protected void run(HarnessConfig config) throws MojoExecutionException, MojoFailureException {
        CheckRun.run(getLog(), options(), config, FullCheck.ranEarlier(this, config.file(), failOnOrphans),
                (c, digest) -> FullCheck.run(this, c, failOnOrphans, true, digest));
    }

    /** The check's options, with what it learnt of the last record before the yaml was loaded. */
    private CheckRun.Options options() {
        boolean known = earlierInputsNow != null;
        return new CheckRun.Options(config.toPath(), recordFile(), failOnOrphans, failOnViolation, failOnStale,
                identity(), known ? earlier.cassettes() : null, known ? earlier.baseline() : null, earlierInputsNow);
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private Path recordFile() {
        return outputDirectory.toPath().resolve(RECORD);
    }

    private String inputs(String identity, Path cassettes, Path baseline) throws MojoExecutionException {
        return CheckRun.inputs(identity, config.toPath(), cassettes, baseline);
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
            PhaseTime digests = PhaseTime.start(getLog());
            engineAndOptions = computeIdentity();
            getLog().debug(digests.done("Took the digests of the plugin's jars"));
        }
        return engineAndOptions;
    }

    private String computeIdentity() {
        StringBuilder sb = new StringBuilder("failOnOrphans=").append(failOnOrphans).append(";runs=").append(runs)
                .append(";loop=").append(loop == null ? "" : loop).append(";shard=").append(shard == null ? "" : shard);
        for (Class<?> c : new Class<?>[] {CheckMojo.class, CheckRecord.class}) {
            String digest = jarDigest(c);
            if (digest == null) {
                getLog().debug(c.getName() + " is not loaded from a jar whose directory can be read; the check is not"
                        + " remembered");
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
            return Files.isRegularFile(jar) ? InputDigest.ofJar(jar) : null;
        } catch (URISyntaxException | IllegalArgumentException | IOException e) {
            return null;
        }
    }
}
