package dev.resilienceharness.maven;

import dev.resilienceharness.pipeline.MergeRun;
import dev.resilienceharness.run.RunException;
import dev.resilienceharness.run.RunFailure;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * For a multi-module build, one {@code report.html} (with {@code report.json}, JUnit XML and {@code secrets.sarif})
 * over every module's scenarios, from the {@code target/resilience/report.json} each module's {@code report} goal
 * wrote: {@code mvn verify resilience:report-aggregate} in the root folder. Fails only with
 * {@code -Dresilience.failOnViolation=true}.
 */
@Mojo(name = "report-aggregate", aggregator = true, threadSafe = true)
public class ReportAggregateMojo extends AbstractMojo {

    /** The Maven project the goal runs in (the root of the build). */
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /** The build, for its modules. */
    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    /** Where the aggregate report goes. */
    @Parameter(property = "resilience.aggregate.outputDirectory",
            defaultValue = "${project.build.directory}/resilience-aggregate")
    private File outputDirectory;

    /** Fails the build on a violation in any module once the report is written; by default it only reports. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "false")
    private boolean failOnViolation;

    /** Skips every resilience goal. */
    @Parameter(property = "resilience.skip", defaultValue = "false")
    private boolean skip;

    /** Skips this goal only. */
    @Parameter(property = "resilience.report-aggregate.skip", defaultValue = "false")
    private boolean skipGoal;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip || skipGoal) {
            getLog().info("Skipping resilience:report-aggregate (resilience." + (skip ? "" : "report-aggregate.")
                    + "skip is true)");
            return;
        }
        List<MergeRun.Module> modules = new ArrayList<>();
        for (MavenProject module : session.getProjects()) {
            Path base = module.getBasedir().toPath();
            modules.add(new MergeRun.Module(module.getArtifactId(), base, Path.of(module.getBuild().getDirectory()),
                    Files.isRegularFile(base.resolve("resilience.yaml"))));
        }
        try {
            MergeRun.aggregate(new MavenRunLog(getLog()), modules, project.getBasedir().toPath(),
                    outputDirectory.toPath(), failOnViolation);
        } catch (RunFailure e) {
            throw new MojoFailureException(e.getMessage());
        } catch (RunException e) {
            throw new MojoExecutionException(e.getMessage(), e.getCause());
        }
    }
}
