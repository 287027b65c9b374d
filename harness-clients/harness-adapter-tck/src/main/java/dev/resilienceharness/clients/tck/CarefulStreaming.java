package dev.resilienceharness.clients.tck;

import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The streaming loop the in-stream error tests run on every SDK, with the SDK's streamed call as a function: each
 * piece of text is emitted as it comes. Careful, it retries a broken stream only while no text has arrived, and once
 * text has been emitted keeps it and ends the op degraded; careless, it retries whenever the stream breaks and emits
 * the retry's text after what it already emitted, so the beginning appears twice.
 *
 * @param <B> what broke a stream, as the SDK's call reports it (an exception, an event's type)
 */
public final class CarefulStreaming<B> {

    /** One streamed call of the SDK. */
    @FunctionalInterface
    public interface Attempt<B> {
        /** Streams once, handing the emitter each event and each piece of text; returns what broke it, or null. */
        B stream(Emitter emitter);
    }

    /** Where an attempt emits its text (after all earlier attempts' text) and counts its events. */
    public static final class Emitter {
        private final StringBuilder emitted;
        private int events;

        private Emitter(StringBuilder emitted) {
            this.emitted = emitted;
        }

        /** One event of the stream arrived. */
        public void event() {
            events++;
        }

        /** A piece of text arrived, and is emitted at once. */
        public void text(String text) {
            emitted.append(text);
        }
    }

    private final boolean careful;
    private final Function<? super B, String> reason;
    private final Function<String, JsonNode> value;
    private final Duration wait;

    private CarefulStreaming(boolean careful, Function<? super B, String> reason, Function<String, JsonNode> value,
            Duration wait) {
        this.careful = careful;
        this.reason = reason;
        this.value = value;
        this.wait = wait;
    }

    /**
     * The loop, careful or not; {@code reason} is the degradation a broken stream ends the op with, and {@code value}
     * the op's value made of the emitted text.
     */
    public static <B> CarefulStreaming<B> of(boolean careful, Function<? super B, String> reason,
            Function<String, JsonNode> value) {
        return new CarefulStreaming<>(careful, reason, value, null);
    }

    /** The same loop waiting {@code wait} before each retry, instead of the policy's backoff. */
    public CarefulStreaming<B> waiting(Duration wait) {
        return new CarefulStreaming<>(careful, reason, value, wait);
    }

    /** Every op of the run in its scope, each streamed by {@code attempts} of the op. */
    public List<Outcome> ops(LoopRun run, Function<String, Attempt<B>> attempts, Consumer<? super B> broken) {
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            outcomes.add(op(run, op, attempts.apply(op), broken));
        }
        return outcomes;
    }

    /** Streams {@code op} in its scope, retrying as the loop does; {@code broken} hears what broke each stream. */
    public Outcome op(LoopRun run, String op, Attempt<B> attempt, Consumer<? super B> broken) {
        try (var scope = run.op(op)) {
            StringBuilder emitted = new StringBuilder();
            for (int attempts = 1; ; attempts++) {
                int before = emitted.length();
                Emitter emitter = new Emitter(emitted);
                B brokenBy = attempt.stream(emitter);
                if (brokenBy == null) {
                    return Outcome.ok(op, value.apply(emitted.toString()), attempts);
                }
                broken.accept(brokenBy);
                if (careful && emitted.length() > before) {
                    // Emitted text cannot be taken back: a retry would emit it again.
                    return new Outcome(op, Status.DEGRADED, value.apply(emitted.toString()), reason.apply(brokenBy),
                            null, attempts, null, null).streamed(emitter.events, Outcome.KEPT);
                }
                if (attempts >= run.policy().maxAttempts()) {
                    return Outcome.degraded(op, reason.apply(brokenBy), attempts);
                }
                run.sleeper().sleep(wait != null ? wait : run.policy().backoff(attempts));
            }
        }
    }
}
