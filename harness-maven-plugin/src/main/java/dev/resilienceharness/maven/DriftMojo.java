package dev.resilienceharness.maven;

import dev.resilienceharness.config.CountParameter;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.drift.DriftCheck;
import dev.resilienceharness.drift.DriftJson;
import dev.resilienceharness.drift.DriftMessages;
import dev.resilienceharness.drift.DriftOptions;
import dev.resilienceharness.drift.DriftResult;
import dev.resilienceharness.live.LiveMessages;
import dev.resilienceharness.report.DriftSection;
import dev.resilienceharness.report.LatencyDistribution;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.MissingApiKey;
import dev.resilienceharness.pipeline.StaleCassettes;
import dev.resilienceharness.run.RunException;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Sends the cassettes' requests to {@code provider.base_url} and compares each live answer with its cassette on
 * what a loop depends on: JSON shape, finish reason, tool calls and their arguments, usage and latency. Writes
 * {@code drift.json}; fails only with {@code -Dresilience.failOnDrift=true}; rewrites no cassette unless
 * {@code -Dresilience.drift.update=true}. Run on demand: {@code mvn resilience:drift}.
 */
@Mojo(name = "drift", threadSafe = true)
public class DriftMojo extends AbstractResilienceMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.drift.skip", defaultValue = "false")
    private boolean skipGoal;

    /** How many cassettes to send, picked at random by {@code resilience.drift.seed}; {@code all} sends every one. */
    @Parameter(property = "resilience.drift.sample", defaultValue = "all")
    private String sample;

    /** Sends only the cassettes of this scenario's ops; empty for every cassette. */
    @Parameter(property = "resilience.drift.scenario")
    private String scenario;

    /** At most this many requests are sent. */
    @Parameter(property = "resilience.drift.maxRequests", defaultValue = "50")
    private String maxRequests;

    /** Re-records each drifted cassette from its live answer, through the recording's redaction. */
    @Parameter(property = "resilience.drift.update", defaultValue = "false")
    private boolean update;

    /** Picks the sample: the same seed sends the same cassettes. */
    @Parameter(property = "resilience.drift.seed", defaultValue = "0")
    private long seed;

    /** Fails the build when a cassette drifted; without it, drift is logged as warnings. */
    @Parameter(property = "resilience.failOnDrift", defaultValue = "false")
    private boolean failOnDrift;

    /** Fails the build when a cassette is older than {@code drift.max_age}; without it, that is a warning. */
    @Parameter(property = "resilience.failOnStale", defaultValue = "false")
    private boolean failOnStale;

    @Override
    protected String goal() {
        return "drift";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected void run(HarnessConfig config) throws MojoExecutionException, MojoFailureException, RunException {
        if (config.provider() == null) {
            throw new MojoExecutionException(config.file() + ": " + LiveMessages.NO_PROVIDER);
        }
        DriftOptions options = options();
        LiveTransport live;
        try {
            live = LiveTransport.connect(config.provider(), System::getenv);
        } catch (MissingApiKey e) {
            throw new MojoExecutionException(e.getMessage());
        }
        getLog().info("Checking the cassettes in " + config.cassettes() + " against " + live.endpoint());
        DriftResult result;
        try {
            result = new DriftCheck(config, live, RecordingRedaction.forConfig(config), Clock.systemUTC())
                    .run(options);
        } catch (DriftCheck.UnknownScenario e) {
            throw new MojoExecutionException(e.getMessage());
        } catch (IOException e) {
            throw new MojoExecutionException(config.cassettes() + ": cannot list the cassette folder: "
                    + e.getMessage(), e);
        }
        Path json;
        try {
            json = DriftJson.write(outputDirectory.toPath(), result);
        } catch (IOException e) {
            throw new MojoExecutionException(outputDirectory + ": cannot write " + DriftJson.FILE_NAME + ": "
                    + e.getMessage(), e);
        }
        try {
            DriftSection.splice(outputDirectory.toPath(), DriftSection.html(DriftJson.toJson(result),
                    LatencyDistribution.of(config)));
        } catch (IOException e) {
            throw new MojoExecutionException(outputDirectory + ": cannot write the drift section of report.html: "
                    + e.getMessage(), e);
        }
        for (DriftResult.Entry e : result.entries()) {
            for (String line : e.lines()) {
                switch (e.status()) {
                    case UNCHANGED -> getLog().info(line);
                    case DRIFTED -> {
                        if (failOnDrift) {
                            getLog().error(line);
                        } else {
                            getLog().warn(line);
                        }
                    }
                    default -> getLog().warn(line);
                }
            }
            if (e.updated()) {
                getLog().info(DriftMessages.updated(e.cassette(), e.op()));
            }
        }
        getLog().info(result.total() + "; see " + json);
        int drifted = result.drifted().size();
        if (drifted > 0 && !update) {
            getLog().info(DriftMessages.HINT_UPDATE);
        }
        int stale = StaleCassettes.report(config, failOnStale, log());
        if (drifted > 0 && failOnDrift) {
            throw new MojoFailureException("resilience:drift: " + drifted + " of " + result.entries().size()
                    + " cassettes drifted from the provider; see the lines above");
        }
        StaleCassettes.fail(goal(), stale);
    }

    private DriftOptions options() throws MojoExecutionException {
        Integer n;
        int max;
        try {
            n = CountParameter.DRIFT_SAMPLE.parseOrAll(sample);
            max = CountParameter.DRIFT_MAX_REQUESTS.parse(maxRequests);
        } catch (CountParameter.Invalid e) {
            throw new MojoExecutionException(e.getMessage());
        }
        String only = scenario == null || scenario.isBlank() ? null : scenario.strip();
        return new DriftOptions(n, only, max, update, seed);
    }
}
