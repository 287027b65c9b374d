package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.fork.ForkProtocol;
import dev.resilienceharness.fork.ForkRequest;
import dev.resilienceharness.pipeline.CheckRun;
import dev.resilienceharness.pipeline.LastCheck;
import dev.resilienceharness.pipeline.ScenarioRunner;
import dev.resilienceharness.run.RunException;
import dev.resilienceharness.scenario.StallBound;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.execution.MavenSession;
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
 * ({@link LastCheck}); while the digest is the same, the next check delivers that result again without loading the
 * yaml or running anything. A team loop's runs depend on its code, so a check that runs one is never remembered.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class CheckMojo extends AbstractScenarioMojo {

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
     * short run that the quick compiler serves better than Maven's JVM does (see the docs, Goals and Performance).
     * With false, the check runs in Maven's JVM. A check whose result is remembered, or that reuses
     * the pass of an earlier {@code report} in the same build, starts no JVM.
     */
    @Parameter(property = "resilience.fork", defaultValue = "true")
    private boolean fork;

    /**
     * The forked JVM's options, separated by spaces. On Linux, {@link HugePages#OPTION} is added to them where the
     * kernel offers transparent huge pages, unless they name large or huge pages themselves ({@link HugePages}).
     */
    @Parameter(property = "resilience.fork.jvmArgs", defaultValue = ForkProtocol.DEFAULT_JVM_ARGS)
    private String forkJvmArgs;

    /**
     * Keeps a class-data archive of the forked JVM's classes in the local repository ({@link ClassArchive}), made by
     * the first check and mapped by every later one, which saves each later check's JVM loading those classes again.
     * With false, none is made or used.
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

    /** What this check learnt of the last one before the yaml was loaded. */
    private LastCheck last;

    @Override
    protected String goal() {
        return "check";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected boolean reusedEarlierResult() throws RunException {
        return last().deliveredAgain(project.getBasedir().toPath(), failOnViolation);
    }

    @Override
    protected boolean ranElsewhere() throws MojoExecutionException, MojoFailureException, RunException {
        if (!fork || SharedPass.ranEarlier(this, config.toPath(), failOnOrphans)) {
            return false;
        }
        Map<String, String> properties = new TreeMap<>();
        session.getUserProperties().forEach((k, v) -> properties.put(String.valueOf(k), String.valueOf(v)));
        if (stallTimeout != null) {
            // Set in the pom as well as by -D: the forked JVM reads it as the property. A bad one is named here.
            ScenarioRunner.stallBound(stallTimeout);
            properties.put(StallBound.PROPERTY, stallTimeout);
        }
        ForkLauncher.check(getLog(), new ForkRequest(options(), loop, shard, runs, testClasspath(), properties,
                getLog().isDebugEnabled()), forkJvmArgs, forkClassArchive ? localRepository : null);
        return true;
    }

    @Override
    protected void run(HarnessConfig config) throws RunException {
        CheckRun.run(log(), options(), config, SharedPass.ranEarlier(this, config.file(), failOnOrphans),
                SharedPass.forVerdict(this, failOnOrphans));
    }

    private CheckRun.Options options() {
        return last().options(failOnOrphans, failOnViolation, failOnStale);
    }

    /** The last check as this one finds it; nothing is remembered without {@code incremental}. */
    private LastCheck last() {
        if (last == null) {
            List<String> libraries = pluginArtifacts.stream()
                    .map(a -> a.getGroupId() + ":" + a.getArtifactId() + ":" + a.getVersion()).toList();
            last = new LastCheck(log(), config.toPath(), outputDirectory.toPath(), !incremental ? null
                    : LastCheck.identity(log(), failOnOrphans, runs, loop, shard, libraries, CheckMojo.class));
        }
        return last;
    }
}
