package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpForwarder;
import dev.resilienceharness.http.StreamRecording;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.RunTrace;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Records through a team's own loop what no cassette answers yet: runs a scenario once with no faults, sends each
 * request the loop's SDK makes that no cassette answers to the live provider, and writes its answer as a cassette
 * labelled with its op. Behind {@code mvn resilience:record} for a loop whose calls come from an SDK.
 */
public final class LoopRecorder {

    private final Rehearsal rehearsal;

    private LoopRecorder(Rehearsal rehearsal) {
        this.rehearsal = rehearsal;
    }

    /**
     * Prepares a recording of {@code config}'s scenarios through {@code loops}: every op's cassette is read as for a
     * rehearsal, except that an op whose calls come from the loop's SDK (no {@code requests:} entry, a team loop) may
     * have no cassette yet.
     *
     * @throws SetupException listing every op without a usable cassette that the loop cannot record
     */
    public static LoopRecorder prepare(HarnessConfig config, LoopFactory loops) throws SetupException {
        return new LoopRecorder(Rehearsal.prepare(config, loops, Integer.MAX_VALUE, RecordedAnswers.CAPACITY_BYTES,
                true));
    }

    public HarnessConfig config() {
        return rehearsal.config();
    }

    /**
     * Runs {@code scenario} once with no faults, sending every request no cassette answers the loop's SDK with to
     * {@code live}, and writes each answer as a cassette labelled with its op: volatile paths stripped, credentials
     * dropped and secrets masked by {@code redaction} before anything touches disk. A request that is answered
     * from a cassette is not sent.
     *
     * @return the run, whose calls are every request the loop made, and how many cassettes it wrote
     * @throws RecordingFailed when the provider cannot be reached, answers other than 200, or a cassette cannot be
     *                         written
     */
    public Recording recordMissing(Scenario scenario, HttpForwarder live, UnaryOperator<ObjectNode> redaction) {
        return recordMissing(scenario, live, redaction, null);
    }

    /** As {@link #recordMissing(Scenario, HttpForwarder, UnaryOperator)}, each cassette stamped with {@code recorded_at}. */
    public Recording recordMissing(Scenario scenario, HttpForwarder live, UnaryOperator<ObjectNode> redaction,
            Clock recordedAt) {
        CassetteStore store = new CassetteStore(rehearsal.config().cassettes(), rehearsal.volatilePaths(),
                Mode.RECORD_MISSING, redaction, recordedAt);
        AtomicReference<RecordingFailed> failed = new AtomicReference<>();
        AtomicInteger written = new AtomicInteger();
        HttpRecorder recorder = (op, request, attempt) -> {
            try {
                OpExchange recorded = recordOne(store, live, op, request, attempt);
                written.incrementAndGet();
                return recorded;
            } catch (RecordingFailed e) {
                // The SDK may wrap what its HTTP client throws; the first failure is what the goal reports.
                failed.compareAndSet(null, e);
                throw e;
            }
        };
        Scenario faultFree = new Scenario(scenario.name(), scenario.ops(), List.of(), scenario.expect(),
                scenario.policy(), scenario.line());
        RunTrace trace = rehearsal.run(faultFree, null, recorder);
        if (failed.get() != null) {
            throw failed.get();
        }
        return new Recording(trace, written.get());
    }

    /**
     * What recording a scenario through its loop did.
     *
     * @param trace    the run: every request the loop made
     * @param recorded how many of them no cassette answered, and were sent and written
     */
    public record Recording(RunTrace trace, int recorded) {
    }

    private OpExchange recordOne(CassetteStore store, HttpForwarder live, String op, ObjectNode request,
            HttpAttempt attempt) {
        HttpAnswer.Response answer;
        try {
            answer = live.send(attempt);
        } catch (IOException e) {
            throw new RecordingFailed(op, e.getMessage());
        }
        if (answer.status() != 200) {
            throw new RecordingFailed(op, "the provider answered " + answer.status() + ": "
                    + abbreviate(answer.text()));
        }
        if (answer.events() != null) {
            return recordStream(store, op, request, answer);
        }
        JsonNode response;
        try {
            response = Json.readTree(answer.body());
        } catch (RuntimeException e) {
            throw new RecordingFailed(op, "the answer is not JSON: " + abbreviate(answer.text()));
        }
        try {
            Cassette c = store.write(request, response, new Timing(null, answer.firstByte().toMillis()), op);
            return rehearsal.lookup().recorded(op, c.request(), c);
        } catch (RecordingRedaction.Refused e) {
            throw new RecordingFailed(op, e.getMessage());
        } catch (IOException e) {
            throw new RecordingFailed(op, "cannot write its cassette: " + e.getMessage());
        }
    }

    /** A streamed answer: the assembled message as {@code response}, every event with its offset as {@code stream}. */
    private OpExchange recordStream(CassetteStore store, String op, ObjectNode request, HttpAnswer.Response answer) {
        StreamRecording.Captured captured;
        try {
            captured = StreamRecording.assemble(answer.events());
        } catch (StreamRecording.Broken e) {
            throw new RecordingFailed(op, "its event stream is broken: " + abbreviate(e.getMessage()));
        }
        try {
            Cassette c = store.write(request, captured.completion(), new Timing(captured.firstTokenMs(),
                    captured.totalMs()), op, captured.stream());
            return rehearsal.lookup().recorded(op, c.request(), c);
        } catch (RecordingRedaction.Refused e) {
            throw new RecordingFailed(op, e.getMessage());
        } catch (IOException e) {
            throw new RecordingFailed(op, "cannot write its cassette: " + e.getMessage());
        }
    }

    private static String abbreviate(String text) {
        String one = text.replaceAll("\\s+", " ").trim();
        return one.length() > 200 ? one.substring(0, 200) + "…" : one;
    }

    /** Recording through the loop's SDK failed for one op; the message says why. */
    public static final class RecordingFailed extends RuntimeException {

        private static final long serialVersionUID = 1L;

        RecordingFailed(String op, String why) {
            super("cannot record op '" + op + "': " + why);
        }
    }
}
