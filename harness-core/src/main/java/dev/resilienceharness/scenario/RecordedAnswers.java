package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.ToolCallSchema;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The recorded answers of a rehearsal's ops, read from their cassettes when a run needs them and kept in a bounded
 * cache of the most recently used, so that a config with thousands of ops never holds all its cassettes at once.
 * Thread-safe.
 */
final class RecordedAnswers {

    /** How many answers are kept: far more than the ops of the scenarios running at one time. */
    static final int CAPACITY = 1024;

    /**
     * An op's recorded answer.
     *
     * @param reply         the response and its first-token latency
     * @param schemaProblem what is wrong with the recorded tool calls, or {@code null}; when there is something, every
     *                      answered call for the op is a schema failure
     * @param samples       the cassette's recorded timing samples (none: empty)
     * @param stream        the recorded events of a streamed answer, or {@code null}
     */
    record Answer(Reply reply, String schemaProblem, List<Timing> samples,
            dev.resilienceharness.cassette.CassetteStream stream) {
        Answer {
            samples = samples == null ? List.of() : List.copyOf(samples);
        }

        /** An answer without recorded timing samples, streamed or not ({@code stream} {@code null}). */
        Answer(Reply reply, String schemaProblem, dev.resilienceharness.cassette.CassetteStream stream) {
            this(reply, schemaProblem, List.of(), stream);
        }

        /** An answer with its recorded timing samples, of an answer that was not streamed. */
        Answer(Reply reply, String schemaProblem, List<Timing> samples) {
            this(reply, schemaProblem, samples, null);
        }

        /** An answer without recorded timing samples that was not streamed. */
        Answer(Reply reply, String schemaProblem) {
            this(reply, schemaProblem, List.of(), null);
        }
    }

    /** A cassette that was found usable before the runs started no longer is. */
    static final class Unreadable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Unreadable(String op, CassetteException e) {
            super("the cassette for op '" + op + "' changed during the build and cannot be read: " + e.getMessage(),
                    e);
        }
    }

    private final CassetteReader reader;
    private final ToolCallSchema schemas;
    private final Map<Path, Answer> recent;

    RecordedAnswers(CassetteReader reader, ToolCallSchema schemas, int capacity) {
        this.reader = reader;
        this.schemas = schemas;
        this.recent = new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Path, Answer> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The answer in {@code cassette} to {@code exchange}'s request, with its tool calls checked. */
    Answer of(OpExchange exchange, Cassette cassette) {
        return new Answer(cassette.reply(), schemas.problem(exchange.request(), cassette.response()),
                cassette.timing() == null ? List.of() : cassette.timing().samples(), cassette.stream());
    }

    /** Keeps an answer just read, so that the first runs need not read it again. */
    void offer(OpExchange exchange, Answer answer) {
        synchronized (recent) {
            recent.put(exchange.file(), answer);
        }
    }

    /** The recorded answer for {@code exchange}'s op, read from its cassette unless it is at hand. */
    Answer answer(OpExchange exchange) {
        synchronized (recent) {
            Answer kept = recent.get(exchange.file());
            if (kept != null) {
                return kept;
            }
        }
        Answer read;
        try {
            read = of(exchange, reader.read(exchange.file()));
        } catch (CassetteException e) {
            throw new Unreadable(exchange.op(), e);
        }
        synchronized (recent) {
            Answer raced = recent.putIfAbsent(exchange.file(), read);
            return raced != null ? raced : read;
        }
    }
}
