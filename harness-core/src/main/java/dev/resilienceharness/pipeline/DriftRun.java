package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.CountParameter;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.drift.DriftCheck;
import dev.resilienceharness.drift.DriftJson;
import dev.resilienceharness.drift.DriftMessages;
import dev.resilienceharness.drift.DriftOptions;
import dev.resilienceharness.drift.DriftResult;
import dev.resilienceharness.live.LiveMessages;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.MissingApiKey;
import dev.resilienceharness.report.DriftSection;
import dev.resilienceharness.report.LatencyDistribution;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import org.apiguardian.api.API;

/**
 * The {@code drift} goal's work on a loaded config: the cassettes' requests sent to the provider, each live answer
 * compared with its cassette, {@code drift.json} and the report's drift section written, and the verdict.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class DriftRun {

    /**
     * The goal's options, as the user wrote them.
     *
     * @param sample      how many cassettes to send, or {@code all}
     * @param scenario    only the cassettes of this scenario's ops, or {@code null} (or blank) for every one
     * @param maxRequests at most this many requests are sent
     * @param update      re-records each drifted cassette from its live answer
     * @param seed        picks the sample
     */
    public record Options(String sample, String scenario, String maxRequests, boolean update, long seed,
            boolean failOnDrift, boolean failOnStale) {
    }

    private DriftRun() {
    }

    /** Checks {@code config}'s cassettes against its provider and writes {@code drift.json} to {@code out}. */
    public static void run(RunLog log, HarnessConfig config, Options options, Path out) throws RunError, RunFailure {
        if (config.provider() == null) {
            throw new RunError(config.file() + ": " + LiveMessages.noProvider(String.valueOf(
                    config.file().getFileName())));
        }
        DriftOptions driftOptions = driftOptions(options);
        LiveTransport live;
        try {
            live = LiveTransport.connect(config.provider(), System::getenv);
        } catch (MissingApiKey e) {
            throw new RunError(e.in(config.file()).getMessage());
        }
        log.info("Checking the cassettes in " + config.cassettes() + " against " + live.endpoint());
        DriftResult result;
        try {
            result = new DriftCheck(config, live, RecordingRedaction.forConfig(config), Clock.systemUTC())
                    .run(driftOptions);
        } catch (DriftCheck.UnknownScenario e) {
            throw new RunError(e.getMessage());
        } catch (IOException e) {
            throw new RunError(config.cassettes() + ": cannot list the cassette folder: "
                    + e.getMessage(), e);
        }
        Path json;
        try {
            json = DriftJson.write(out, result);
        } catch (IOException e) {
            throw new RunError(out + ": cannot write " + DriftJson.FILE_NAME + ": "
                    + e.getMessage(), e);
        }
        try {
            DriftSection.splice(out, DriftSection.html(DriftJson.toJson(result),
                    LatencyDistribution.of(config)));
        } catch (IOException e) {
            throw new RunError(out + ": cannot write the drift section of report.html: "
                    + e.getMessage(), e);
        }
        for (DriftResult.Entry e : result.entries()) {
            for (String line : e.lines()) {
                switch (e.status()) {
                    case UNCHANGED -> log.info(line);
                    case DRIFTED -> {
                        if (options.failOnDrift()) {
                            log.error(line);
                        } else {
                            log.warn(line);
                        }
                    }
                    default -> log.warn(line);
                }
            }
            if (e.updated()) {
                log.info(DriftMessages.updated(e.cassette(), e.op()));
            }
        }
        log.info(result.total() + "; see " + json);
        int drifted = result.drifted().size();
        if (drifted > 0 && !options.update()) {
            log.info(DriftMessages.HINT_UPDATE);
        }
        int stale = StaleCassettes.report(config, options.failOnStale(), log);
        if (drifted > 0 && options.failOnDrift()) {
            throw new RunFailure("resilience:drift: " + drifted + " of " + result.entries().size()
                    + " cassettes drifted from the provider; see the lines above");
        }
        StaleCassettes.fail("drift", stale);
    }

    private static DriftOptions driftOptions(Options options) throws RunError {
        Integer n;
        int max;
        try {
            n = CountParameter.DRIFT_SAMPLE.parseOrAll(options.sample());
            max = CountParameter.DRIFT_MAX_REQUESTS.parse(options.maxRequests());
        } catch (CountParameter.Invalid e) {
            throw new RunError(e.getMessage());
        }
        String only = options.scenario() == null || options.scenario().isBlank() ? null : options.scenario().strip();
        return new DriftOptions(n, only, max, options.update(), options.seed());
    }
}
