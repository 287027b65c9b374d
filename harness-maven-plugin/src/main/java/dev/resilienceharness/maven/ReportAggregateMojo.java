package dev.resilienceharness.maven;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.report.AggregateReport;
import dev.resilienceharness.report.MergedReports;
import dev.resilienceharness.report.ReportJson;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.pipeline.Verdict;
import dev.resilienceharness.run.RunFailure;
import java.io.File;
import java.io.IOException;
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
        List<AggregateReport.Module> modules = new ArrayList<>();
        for (MavenProject module : session.getProjects()) {
            Path json = Path.of(module.getBuild().getDirectory(), "resilience", ReportWriter.JSON);
            if (!Files.isRegularFile(json)) {
                if (Files.isRegularFile(module.getBasedir().toPath().resolve("resilience.yaml"))) {
                    getLog().warn(module.getArtifactId() + ": no " + json + "; bind the report goal in the module"
                            + " (or run mvn verify resilience:report resilience:report-aggregate) to include it");
                }
                continue;
            }
            try {
                modules.add(new AggregateReport.Module(module.getArtifactId(), module.getBasedir().toPath(),
                        ReportJson.fromJson(Json.readTree(Files.readAllBytes(json)))));
            } catch (IOException | RuntimeException e) {
                throw new MojoExecutionException(json + ": cannot be read: " + e.getMessage()
                        + "; run the module's report goal again");
            }
        }
        Path base = project.getBasedir().toPath();
        RunReport all = AggregateReport.of(modules, base);
        getLog().info("Aggregated " + modules.size() + (modules.size() == 1 ? " module: " : " modules: ")
                + all.scenarios().size() + " scenarios, " + all.cassettes().checked() + " cassettes");
        Path out = outputDirectory.toPath();
        ReportWriter.Written written;
        try {
            written = MergedReports.write(all, base, out);
        } catch (IOException e) {
            throw new MojoExecutionException(out + ": cannot write the reports: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("a module's report.json is damaged: " + e.getMessage()
                    + "; run its report goal again");
        }
        getLog().info("Report: " + written.html().toUri());
        try {
            Verdict.deliver(new MavenRunLog(getLog()), "report-aggregate", MergedReports.violations(all, base), failOnViolation,
                    "see " + written.html());
        } catch (RunFailure e) {
            throw new MojoFailureException(e.getMessage());
        }
    }
}
