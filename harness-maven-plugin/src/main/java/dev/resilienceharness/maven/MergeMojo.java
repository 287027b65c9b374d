package dev.resilienceharness.maven;

import dev.resilienceharness.pipeline.MergeRun;
import dev.resilienceharness.run.RunException;
import dev.resilienceharness.run.RunFailure;
import java.io.File;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Merges the outputs of the N shards of a check ({@code mvn resilience:report -Dresilience.shard=K/N} on N CI jobs)
 * into one {@code report.html}, {@code report.json}, JUnit XML and {@code secrets.sarif}, as one unsharded run would
 * have written them. It fails when a shard is missing, given twice or ran on other inputs, and fails the build when any
 * shard found a violation. It reads no yaml: the shards' outputs are all it needs, and the {@code .gitleaks.toml} in
 * the project's folder, whose rules' ids the secret findings may carry.
 */
@Mojo(name = "merge", threadSafe = true)
public class MergeMojo extends AbstractMojo {

    /** The Maven project. */
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /**
     * The shards' output folders: a comma-separated list, each of which may be a glob ({@code shards/*}), relative to
     * the project's folder.
     */
    @Parameter(property = "resilience.merge.from", required = true)
    private String from;

    /** Where the merged reports go. */
    @Parameter(property = "resilience.outputDirectory", defaultValue = "${project.build.directory}/resilience")
    private File outputDirectory;

    /** Fails the build when a shard found a violation; with false, violations are logged as warnings. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "true")
    private boolean failOnViolation;

    /** Skips every resilience goal. */
    @Parameter(property = "resilience.skip", defaultValue = "false")
    private boolean skip;

    /** Skips this goal only. */
    @Parameter(property = "resilience.merge.skip", defaultValue = "false")
    private boolean skipGoal;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip || skipGoal) {
            getLog().info("Skipping resilience:merge (resilience." + (skip ? "" : "merge.") + "skip is true)");
            return;
        }
        try {
            MergeRun.merge(new MavenRunLog(getLog()), project.getBasedir().toPath(), from, outputDirectory.toPath(),
                    failOnViolation);
        } catch (RunFailure e) {
            throw new MojoFailureException(e.getMessage());
        } catch (RunException e) {
            throw new MojoExecutionException(e.getMessage(), e.getCause());
        }
    }
}
