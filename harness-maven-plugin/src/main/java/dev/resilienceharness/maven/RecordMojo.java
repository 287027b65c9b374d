package dev.resilienceharness.maven;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.CountParameter;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.live.LiveMessages;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.MissingApiKey;
import dev.resilienceharness.live.RecordSummary;
import dev.resilienceharness.live.Recorder;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.HttpForwarder;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.SetupException;
import java.io.IOException;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sends every scenario op's request, exactly as declared, to {@code provider.base_url} and writes its cassette,
 * volatile fields stripped and secrets redacted before anything touches disk. The key is read from the
 * environment variable {@code provider.api_key_env} names and never written. Run on demand:
 * {@code mvn resilience:record}. With a team's loop ({@code loop: com.acme.MyLoop}) it runs each scenario once with
 * no faults on the project's test classpath, and records every request the loop's SDK sends that no cassette
 * answers, labelled with the op it was made for.
 */
@Mojo(name = "record", threadSafe = true, requiresDependencyResolution = ResolutionScope.TEST)
public class RecordMojo extends AbstractResilienceMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.record.skip", defaultValue = "false")
    private boolean skipGoal;

    /**
     * {@code record-missing} sends only the requests that have no cassette yet; {@code record} sends every request
     * again and rewrites its cassette.
     */
    @Parameter(property = "resilience.mode", defaultValue = "record-missing")
    private String mode;

    /**
     * Sends each request this many times and keeps every send's timing in its cassette ({@code timing.samples}),
     * for the fault {@code {latency: recorded}} to draw from; the first answer is the one recorded.
     */
    @Parameter(property = "resilience.record.samples", defaultValue = "1")
    private String samples;

    /**
     * Records through this loop instead of the yaml's {@code loop:}: {@code builtin} or the binary class name of a
     * loop on the project's test classpath, such as {@code com.acme.agent.MyLoop}, as in every goal that runs
     * scenarios.
     */
    @Parameter(property = "resilience.loop")
    private String loop;

    @Override
    protected String loopOverride() {
        return loop;
    }

    @Override
    protected String goal() {
        return "record";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected void run(HarnessConfig config) throws MojoExecutionException, MojoFailureException {
        int timingSamples;
        try {
            timingSamples = CountParameter.RECORD_SAMPLES.parse(samples);
        } catch (CountParameter.Invalid e) {
            throw new MojoExecutionException(e.getMessage());
        }
        Mode m = Mode.fromUser(mode);
        if (m == null || m == Mode.REPLAY) {
            throw new MojoExecutionException("resilience.mode must be record-missing or record for resilience:record,"
                    + " was '" + mode + "'");
        }
        if (config.scenarios().isEmpty()) {
            getLog().warn(ScenarioScope.noScenarios(config, goal()));
            return;
        }
        if (config.provider() == null) {
            throw new MojoExecutionException(config.file() + ": " + LiveMessages.NO_PROVIDER);
        }
        if (!config.usesBuiltinLoop()) {
            if (m == Mode.RECORD) {
                throw new MojoExecutionException("resilience.mode=record re-sends every op's declared request; with"
                        + " loop: " + config.loop() + " delete the cassettes to re-record and run record-missing");
            }
            recordThroughLoop(config);
            return;
        }
        LiveTransport live;
        try {
            live = LiveTransport.connect(config.provider(), System::getenv);
        } catch (MissingApiKey e) {
            throw new MojoExecutionException(e.getMessage());
        }
        getLog().info("Recording " + Recorder.ops(config).size() + " ops (" + m.userName() + ") from "
                + live.endpoint() + " into " + config.cassettes());
        RecordSummary summary = new Recorder(config, m, live, redaction(config), java.time.Clock.systemUTC(),
                timingSamples)
                .record();
        for (RecordSummary.Entry e : summary.entries()) {
            if (e.result() == RecordSummary.Result.FAILED) {
                getLog().error(e.line());
            } else {
                getLog().info(e.line());
            }
        }
        getLog().info(summary.total());
        if (!summary.failures().isEmpty()) {
            throw new MojoFailureException("resilience:record: " + summary.failures().size() + " of "
                    + summary.entries().size() + " ops could not be recorded; see the lines above");
        }
    }

    /** Runs the team's loop once per scenario, recording what its SDK sends that no cassette answers. */
    private void recordThroughLoop(HarnessConfig config) throws MojoExecutionException, MojoFailureException {
        HttpForwarder live;
        try {
            live = LiveTransport.forwarder(config.provider(), System::getenv, Duration.ofMinutes(2));
        } catch (MissingApiKey e) {
            throw new MojoExecutionException(e.getMessage());
        }
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = ScenarioLauncher.projectLoader(project.getTestClasspathElements())) {
            Thread.currentThread().setContextClassLoader(loader);
            LoopRecorder recorder = LoopRecorder.prepare(config, LoopFactory.forName(config.loop(), loader));
            getLog().info("Recording through loop " + config.loop() + " from " + config.provider().baseUrl()
                    + " into " + config.cassettes());
            int failed = 0;
            for (Scenario s : config.scenarios()) {
                try {
                    LoopRecorder.Recording recording = recorder.recordMissing(s, live, redaction(config),
                            java.time.Clock.systemUTC(), r -> getLog().info(s.name() + ": " + r.line()));
                    getLog().info(s.name() + ": " + recording.trace().calls().size() + " calls, "
                            + recording.recorded() + " recorded");
                } catch (LoopRecorder.RecordingFailed e) {
                    failed++;
                    getLog().error(s.name() + ": " + e.getMessage());
                }
            }
            if (failed > 0) {
                throw new MojoFailureException("resilience:record: " + failed + " of " + config.scenarios().size()
                        + " scenarios could not be recorded; see the lines above");
            }
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("the project's test classpath is not resolved: " + e.getMessage(), e);
        } catch (LoopFactory.LoopNotUsable e) {
            throw new MojoExecutionException(config.file() + ": loop: " + e.getMessage());
        } catch (SetupException e) {
            throw new MojoExecutionException(e.getMessage());
        } catch (IOException e) {
            throw new MojoExecutionException("cannot close the project's class loader: " + e.getMessage(), e);
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    /** Volatile fields are stripped by the cassette store; secrets are masked here, failing closed. */
    private static UnaryOperator<ObjectNode> redaction(HarnessConfig config) {
        return RecordingRedaction.forConfig(config);
    }
}
