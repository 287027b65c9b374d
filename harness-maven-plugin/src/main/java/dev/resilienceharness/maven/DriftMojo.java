package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.pipeline.DriftRun;
import dev.resilienceharness.run.RunException;
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
    protected void run(HarnessConfig config) throws RunException {
        DriftRun.run(log(), config, new DriftRun.Options(sample, scenario, maxRequests, update, seed, failOnDrift,
                failOnStale), outputDirectory.toPath());
    }
}
