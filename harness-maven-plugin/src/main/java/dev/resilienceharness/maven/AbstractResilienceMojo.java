package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.pipeline.Harness;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunException;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.shard.Shard;
import java.io.File;
import java.nio.file.Path;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * What every goal shares: skipping, finding and loading {@code resilience.yaml}, and turning the engine's errors
 * ({@link RunError}, {@link RunFailure}) into Maven's two failure kinds. {@link #execute()} is final; a goal
 * implements {@link #run(HarnessConfig)}.
 */
public abstract class AbstractResilienceMojo extends AbstractMojo {

    /** The Maven project. */
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    /** The configuration file: scenarios, policy, cassette folder. */
    @Parameter(property = "resilience.config", defaultValue = "${project.basedir}/resilience.yaml")
    protected File config;

    /** Skips every resilience goal. */
    @Parameter(property = "resilience.skip", defaultValue = "false")
    protected boolean skip;

    /** Where reports go: report.html, report.json, JUnit XML and secrets.sarif. */
    @Parameter(property = "resilience.outputDirectory", defaultValue = "${project.build.directory}/resilience")
    protected File outputDirectory;

    /**
     * Runs one part of the work, K of N (such as {@code 2/8}): the scenarios whose names hash to shard K, the cassettes
     * whose file names do, and every N-th of explore's fault plans. {@code resilience:merge} makes one report of the N
     * outputs. Unset, a goal does all of its work.
     */
    @Parameter(property = "resilience.shard")
    protected String shard;

    private Shard part;

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        try {
            executeGoal();
        } catch (RunFailure e) {
            throw new MojoFailureException(e.getMessage());
        } catch (RunException e) {
            // The other kind, RunError.
            throw new MojoExecutionException(e.getMessage(), e.getCause());
        }
    }

    private void executeGoal() throws MojoExecutionException, MojoFailureException, RunException {
        if (skip) {
            getLog().info("Skipping resilience:" + goal() + " (resilience.skip is true)");
            return;
        }
        if (goalSkipped()) {
            getLog().info("Skipping resilience:" + goal() + " (resilience." + goal() + ".skip is true)");
            return;
        }
        if (!part().whole() && !shards()) {
            throw new MojoExecutionException("resilience:" + goal() + " does not run in shards; leave out"
                    + " -Dresilience.shard=" + shard);
        }
        String built = project.getBuild() == null ? null : project.getBuild().getDirectory();
        if (!Harness.runsOn(config.toPath(), project.getBasedir() == null ? null : project.getBasedir().toPath(),
                "pom".equals(project.getPackaging()), outputDirectory == null ? null : outputDirectory.toPath(),
                built == null ? null : Path.of(built))) { // an aggregator without the default yaml
            getLog().info("Skipping resilience:" + goal() + ": no " + config.getName() + " in this pom module");
            return;
        }
        if (reusedEarlierResult()) {
            return;
        }
        if (ranElsewhere()) {
            return;
        }
        HarnessConfig loaded = Harness.load(log(), config.toPath(), loopOverride(), goal(), keepsServeOnlyScenarios());
        try {
            run(loaded);
        } catch (RuntimeException e) {
            throw new MojoExecutionException(Harness.unexpected(goal(), e), e);
        }
    }

    /**
     * Whether the goal has done its work in a JVM of its own, which loads the yaml itself; asked after
     * {@link #reusedEarlierResult()}. By default, a goal works in Maven's JVM.
     */
    protected boolean ranElsewhere() throws MojoExecutionException, MojoFailureException, RunException {
        return false;
    }

    /** The loop {@code -Dresilience.loop} puts in place of the yaml's, or {@code null}; only goals that run loops ask. */
    protected String loopOverride() {
        return null;
    }

    /** The shard {@code resilience.shard} names, {@link Shard#WHOLE} when it is not set. */
    protected Shard part() throws RunError {
        if (part == null) {
            part = Harness.shard(shard);
        }
        return part;
    }

    /** Whether the goal can do a shard of its work ({@code resilience.shard}); the others refuse one. */
    protected boolean shards() {
        return false;
    }

    /** The goal's name, as in {@code resilience:<goal>}. */
    protected abstract String goal();

    /** Whether the goal's own {@code resilience.<goal>.skip} is set. */
    protected abstract boolean goalSkipped();

    /**
     * Whether the goal found that nothing it reads has changed since it last ran and has delivered that run's result
     * again; it is asked before the yaml is loaded. By default, a goal always does its work.
     */
    protected boolean reusedEarlierResult() throws MojoExecutionException, MojoFailureException, RunException {
        return false;
    }

    /** Whether the goal works on the scenarios without ops too (fault plans for the proxy); only serve does. */
    protected boolean keepsServeOnlyScenarios() {
        return false;
    }

    /** Does the goal's work on a loaded config. */
    protected abstract void run(HarnessConfig config) throws MojoExecutionException, MojoFailureException,
            RunException;

    /** This goal's log, as the engine logs to it. */
    protected RunLog log() {
        return new MavenRunLog(getLog());
    }
}
