package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.CountParameter;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.HttpForwarder;
import dev.resilienceharness.live.LiveMessages;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.MissingApiKey;
import dev.resilienceharness.live.RecordSummary;
import dev.resilienceharness.live.Recorder;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.SetupException;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.io.IOException;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code record} goal's work on a loaded config: every op's request sent, exactly as declared, to the provider and
 * written as its cassette, volatile fields stripped and secrets redacted before anything touches disk; or, with a
 * team's loop, each scenario run once with no faults, recording what the loop's SDK sends that no cassette answers.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class RecordRun {

    private RecordRun() {
    }

    /**
     * Records the cassettes of {@code config}'s ops in {@code mode} ({@code record-missing} or {@code record}), each
     * sent {@code samples} times; with a team's loop, through the loop on {@code testClasspath}.
     */
    public static void run(RunLog log, HarnessConfig config, String mode, String samples,
            ScenarioRunner.TestClasspath testClasspath) throws RunError, RunFailure {
        int timingSamples;
        try {
            timingSamples = CountParameter.RECORD_SAMPLES.parse(samples);
        } catch (CountParameter.Invalid e) {
            throw new RunError(e.getMessage());
        }
        Mode m = Mode.fromUser(mode);
        if (m == null || m == Mode.REPLAY) {
            throw new RunError("resilience.mode must be record-missing or record for resilience:record,"
                    + " was '" + mode + "'");
        }
        if (config.scenarios().isEmpty()) {
            log.warn(ScenarioScope.noScenarios(config, "record"));
            return;
        }
        if (config.provider() == null) {
            throw new RunError(config.file() + ": " + LiveMessages.noProvider(String.valueOf(
                    config.file().getFileName())));
        }
        if (!config.usesBuiltinLoop()) {
            if (m == Mode.RECORD) {
                throw new RunError("resilience.mode=record re-sends every op's declared request; with"
                        + " loop: " + config.loop() + " delete the cassettes to re-record and run record-missing");
            }
            recordThroughLoop(log, config, testClasspath);
            return;
        }
        LiveTransport live;
        try {
            live = LiveTransport.connect(config.provider(), System::getenv);
        } catch (MissingApiKey e) {
            throw new RunError(e.in(config.file()).getMessage());
        }
        log.info("Recording " + Recorder.ops(config).size() + " ops (" + m.userName() + ") from "
                + live.endpoint() + " into " + config.cassettes());
        RecordSummary summary = new Recorder(config, m, live, redaction(config), java.time.Clock.systemUTC(),
                timingSamples)
                .record();
        for (RecordSummary.Entry e : summary.entries()) {
            if (e.result() == RecordSummary.Result.FAILED) {
                log.error(e.line());
            } else {
                log.info(e.line());
            }
        }
        log.info(summary.total());
        if (!summary.failures().isEmpty()) {
            throw new RunFailure("resilience:record: " + summary.failures().size() + " of "
                    + summary.entries().size() + " ops could not be recorded; see the lines above");
        }
    }

    /** Runs the team's loop once per scenario, recording what its SDK sends that no cassette answers. */
    private static void recordThroughLoop(RunLog log, HarnessConfig config, ScenarioRunner.TestClasspath testClasspath)
            throws RunError, RunFailure {
        HttpForwarder live;
        try {
            live = LiveTransport.forwarder(config.provider(), System::getenv, Duration.ofMinutes(2));
        } catch (MissingApiKey e) {
            throw new RunError(e.in(config.file()).getMessage());
        }
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = ScenarioLauncher.projectLoader(testClasspath.get())) {
            Thread.currentThread().setContextClassLoader(loader);
            LoopRecorder recorder = LoopRecorder.prepare(config, LoopFactory.forName(config.loop(), loader));
            log.info("Recording through loop " + config.loop() + " from " + config.provider().baseUrl()
                    + " into " + config.cassettes());
            int failed = 0;
            for (Scenario s : config.scenarios()) {
                try {
                    LoopRecorder.Recording recording = recorder.recordMissing(s, live, redaction(config),
                            java.time.Clock.systemUTC(), r -> log.info(s.name() + ": " + r.line()),
                            line -> log.info(s.name() + ": " + line));
                    recording.tools().forEach(t -> log.info(s.name() + ": " + t.line()));
                    log.info(s.name() + ": " + recording.trace().calls().size() + " calls, "
                            + recording.recorded() + " recorded");
                } catch (LoopRecorder.RecordingFailed e) {
                    failed++;
                    log.error(s.name() + ": " + e.getMessage());
                }
            }
            if (failed > 0) {
                throw new RunFailure("resilience:record: " + failed + " of " + config.scenarios().size()
                        + " scenarios could not be recorded; see the lines above");
            }
        } catch (LoopFactory.LoopNotUsable e) {
            throw new RunError(config.file() + ": loop: " + e.getMessage());
        } catch (SetupException e) {
            throw new RunError(e.getMessage());
        } catch (IOException e) {
            throw new RunError("cannot close the project's class loader: " + e.getMessage(), e);
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    /** Volatile fields are stripped by the cassette store; secrets are masked here, failing closed. */
    private static UnaryOperator<ObjectNode> redaction(HarnessConfig config) {
        return RecordingRedaction.forConfig(config);
    }
}
