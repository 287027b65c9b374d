package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.explore.ExploreReport;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.report.SecretFindingRow;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.pipeline.CheckPass;
import dev.resilienceharness.pipeline.Verdict;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunException;
import dev.resilienceharness.secrets.SarifWriter;
import dev.resilienceharness.shard.ShardInputs;
import dev.resilienceharness.shard.ShardMarker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Checks every invariant and writes the reports to {@code target/resilience/}: {@code report.html} (one
 * self-contained page), {@code report.json}, {@code junit/TEST-resilience.xml} and {@code secrets.sarif}. It
 * includes the last {@code explore.json} found there. Fails only with {@code -Dresilience.failOnViolation=true}.
 */
@Mojo(name = "report", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class ReportMojo extends AbstractScenarioMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.report.skip", defaultValue = "false")
    private boolean skipGoal;

    /** Fails the build on a violation once the reports are written; by default the report goal only reports. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "false")
    private boolean failOnViolation;

    /** Treats cassettes that no scenario op uses as violations instead of warnings. */
    @Parameter(property = "resilience.failOnOrphans", defaultValue = "false")
    private boolean failOnOrphans;

    @Override
    protected String goal() {
        return "report";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected void run(HarnessConfig config) throws RunException {
        Path out = outputDirectory.toPath();
        String inputs = shardInputs(config, out);
        CheckPass.Result result = SharedPass.run(this, config, failOnOrphans);
        ShardMarker marker = inputs == null ? null : ShardMarker.of(part(), inputs, config.scenarios(),
                result.cassettes().fingerprints(), config.cassettes());
        Path base = project.getBasedir().toPath();
        List<SecretFindingRow> rows = result.secrets().findings().stream()
                .map(f -> SecretFindingRow.of(f, base)).toList();
        RunReport.Builder report = RunReport.builder()
                .scenarios(result.scenarios())
                .cassettes(result.cassettes())
                .secrets(result.secrets().files(), rows);
        Path explored = out.resolve("explore.json");
        try {
            ExploreReport.Saved saved = ExploreReport.read(explored);
            if (saved != null) {
                report.exploration(saved.plans(), saved.counterexamples());
            }
        } catch (IOException e) {
            getLog().warn(explored + ": not included in the report, it cannot be read: " + e.getMessage());
        }
        ReportWriter.Written written;
        try {
            written = ReportWriter.writeAll(report.build(), EnumSet.allOf(Invariant.class), out,
                    dev.resilienceharness.report.DriftSection.html(dev.resilienceharness.report.DriftSection.read(out),
                            dev.resilienceharness.report.LatencyDistribution.of(config)));
            new SarifWriter(base).write(result.secrets().findings(), out.resolve("secrets.sarif"));
        } catch (IOException e) {
            throw new RunError(out + ": cannot write the reports: " + e.getMessage(), e);
        }
        if (marker != null) {
            try {
                getLog().info("Shard " + marker.shard() + " of the check: " + marker.write(out)
                        + "; merge the shards with mvn resilience:merge");
            } catch (IOException e) {
                throw new RunError(out + ": cannot write " + ShardMarker.FILE + ": " + e.getMessage(), e);
            }
        }
        getLog().info("Report: " + written.html().toUri());
        Verdict.deliver(log(), goal(), result.violations(), failOnViolation, "see " + written.html());
    }

    /**
     * A sharded report's inputs digest, taken before the check reads anything; {@code null} for the whole work. An
     * earlier marker in the folder is removed first, so that a folder never pairs it with other reports.
     */
    private String shardInputs(HarnessConfig config, Path out) throws RunError {
        try {
            Files.deleteIfExists(out.resolve(ShardMarker.FILE));
            if (part().whole()) {
                return null;
            }
            String options = "runs=" + runs + ";failOnOrphans=" + failOnOrphans + ";loop=" + config.loop();
            return ShardInputs.digest(config, options);
        } catch (IOException e) {
            throw new RunError("cannot read what the check reads: " + e.getMessage(), e);
        }
    }
}
