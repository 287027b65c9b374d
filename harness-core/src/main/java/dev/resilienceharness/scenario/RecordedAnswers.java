package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.limits.Tokens;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.ToolCallSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The recorded answers of a rehearsal's ops, read from their cassettes when a run needs them and kept in a bounded
 * cache of the recently used (a clock sweep, see {@link #keep}) — bounded by the bytes of the cassettes they were read from, and by a count — so
 * that a config with many thousands of ops never holds all its cassettes at once, while a corpus that fits is read
 * once. Answers another pass has already read ({@link KeptAnswers}) are taken from it rather than read again.
 * Thread-safe.
 */
final class RecordedAnswers {

    /** How many answers are kept when a count is the bound asked for. */
    static final int CAPACITY = 1024;

    /**
     * How many bytes of cassettes the answers kept by default may come from: 48 MiB, about 15,000 chat completions of
     * 3 KB, whose parsed answers take about three times that in the heap.
     */
    static final long CAPACITY_BYTES = 48L * 1024 * 1024;

    /**
     * How many bytes of cassettes the answers kept may come from when the runs first take the answers an earlier pass
     * parsed ({@link KeptAnswers}, itself up to {@value #CAPACITY_BYTES}): 8 MiB. The runs take each answer from there,
     * so this cache only holds it for the scenario's other runs and for scenarios close by that send the same request;
     * a cache as big as the kept answers would keep a second corpus's worth of answers alive beside them (for the heap
     * it costs, see bench/README.md, "Growth").
     */
    static final long CAPACITY_BYTES_AFTER_KEPT = 8L * 1024 * 1024;

    /**
     * An op's recorded answer. Immutable, but for the tokens it spends, which are counted when first asked for and
     * then kept with it, so that every run that meets the answer does not count them again.
     */
    static final class Answer {

        private final Reply reply;
        private final String schemaProblem;
        private final List<Timing> samples;
        private final dev.resilienceharness.cassette.CassetteStream stream;
        /** Counted on first use; a race counts them twice, to the same value. */
        private Tokens tokens;

        /**
         * @param reply         the response and its first-token latency
         * @param schemaProblem what is wrong with the recorded tool calls, or {@code null}; when there is something,
         *                      every answered call for the op is a schema failure
         * @param samples       the cassette's recorded timing samples (none: empty or {@code null})
         * @param stream        the recorded events of a streamed answer, or {@code null}
         */
        Answer(Reply reply, String schemaProblem, List<Timing> samples,
                dev.resilienceharness.cassette.CassetteStream stream) {
            this.reply = reply;
            this.schemaProblem = schemaProblem;
            this.samples = samples == null ? List.of() : List.copyOf(samples);
            this.stream = stream;
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

        Reply reply() {
            return reply;
        }

        String schemaProblem() {
            return schemaProblem;
        }

        List<Timing> samples() {
            return samples;
        }

        dev.resilienceharness.cassette.CassetteStream stream() {
            return stream;
        }

        /** The tokens this answer to {@code request} spends ({@link Tokens#of}); the answer has one request. */
        Tokens tokens(tools.jackson.databind.JsonNode request) {
            Tokens counted = tokens;
            if (counted == null) {
                counted = Tokens.of(request, reply.body());
                tokens = counted;
            }
            return counted;
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

    /**
     * An answer, the size of the file it was read from, and whether a run took it since the sweep last passed it.
     * The flag is all a hit writes: it stores no reference, so answers the runs keep taking cost the collector nothing
     * (an access-ordered map relinked an old entry on every hit, and the collector then had to refine those cards).
     *
     * <p>A run's ops remember where their answers are held ({@link #answer(OpExchange, Held[], int)}); when the cache
     * lets an answer go, its holder lets go of it too, so that a holder remembered elsewhere keeps nothing alive past
     * the bounds. A thread that still sees the answer after that gets a valid one all the same.
     */
    static final class Held {
        private Answer answer;
        private final long bytes;
        private volatile boolean used;

        Held(Answer answer, long bytes) {
            this.answer = answer;
            this.bytes = bytes;
        }

        /** The answer, marked as taken; {@code null} once the cache has let it go. */
        Answer take() {
            Answer held = answer;
            if (held != null && !used) {
                used = true;
            }
            return held;
        }

        private void letGo() {
            answer = null;
        }
    }

    private final CassetteReader reader;
    private final ToolCallSchema schemas;
    private final int capacity;
    private final long capacityBytes;
    private final KeptAnswers kept;
    private final ConcurrentHashMap<Path, Held> recent = new ConcurrentHashMap<>();
    /** The kept answers' files in the order the sweep meets them, oldest first; guards itself and {@link #bytes}. */
    private final ArrayDeque<Path> order = new ArrayDeque<>();
    private long bytes;

    /** Keeps up to {@code capacity} answers, whatever their size. */
    RecordedAnswers(CassetteReader reader, ToolCallSchema schemas, int capacity) {
        this(reader, schemas, capacity, Long.MAX_VALUE, null);
    }

    /**
     * Keeps up to {@code capacity} answers read from up to {@code capacityBytes} bytes of cassettes, and first takes
     * an answer from {@code kept} (may be {@code null}) before reading its file.
     */
    RecordedAnswers(CassetteReader reader, ToolCallSchema schemas, int capacity, long capacityBytes,
            KeptAnswers kept) {
        this.reader = reader;
        this.schemas = schemas;
        this.capacity = capacity;
        this.capacityBytes = capacityBytes;
        this.kept = kept;
    }

    /** The answer in {@code cassette} to {@code exchange}'s request, with its tool calls checked. */
    Answer of(OpExchange exchange, Cassette cassette) {
        return of(exchange, cassette.reply(), samples(cassette), cassette.stream());
    }

    /** A cassette's recorded timing samples (none: empty). */
    static List<dev.resilienceharness.cassette.Timing> samples(Cassette cassette) {
        return cassette.timing() == null ? List.of() : cassette.timing().samples();
    }

    private Answer of(OpExchange exchange, Reply reply, List<dev.resilienceharness.cassette.Timing> samples,
            dev.resilienceharness.cassette.CassetteStream stream) {
        return new Answer(reply, schemas.problem(exchange.request(), reply.body()), samples, stream);
    }

    /** Keeps an answer just read, so that the first runs need not read it again. */
    void offer(OpExchange exchange, Answer answer) {
        long size;
        try {
            size = Files.size(exchange.file());
        } catch (IOException e) {
            size = 0;
        }
        offer(exchange, answer, size);
    }

    /** Keeps an answer just read from {@code size} bytes, so that the first runs need not read it again. */
    void offer(OpExchange exchange, Answer answer, long size) {
        synchronized (order) {
            keep(exchange.file(), new Held(answer, size));
        }
    }

    /** The recorded answer for {@code exchange}'s op, read from its cassette unless it is at hand. */
    Answer answer(OpExchange exchange) {
        return answer(exchange, null, 0);
    }

    /**
     * As {@link #answer(OpExchange)}, first from {@code held[i]}, where the last call there left the holder of the
     * answer it got, and leaving this call's there: while the cache keeps the answer, the next call goes to it
     * without a look-up by file. {@code held} {@code null}: nothing is remembered.
     */
    Answer answer(OpExchange exchange, Held[] held, int i) {
        if (held != null && held[i] != null) {
            Answer kept = held[i].take();
            if (kept != null) {
                return kept;
            }
        }
        Held hit = recent.get(exchange.file());
        Answer found = hit == null ? null : hit.take();
        if (found != null) {
            if (held != null) {
                held[i] = hit;
            }
            return found;
        }
        Held read;
        KeptAnswers.Kept taken = kept == null ? null : kept.take(exchange.file());
        if (taken != null) {
            read = new Held(of(exchange, taken.reply(), taken.samples(), taken.stream()), taken.bytes());
        } else {
            try {
                byte[] content = reader.readBytes(exchange.file());
                read = new Held(of(exchange, reader.parse(exchange.file(), content)), content.length);
            } catch (CassetteException e) {
                throw new Unreadable(exchange.op(), e);
            }
        }
        synchronized (order) {
            // Under the lock, what the map holds has not been let go.
            Held raced = recent.get(exchange.file());
            if (held != null) {
                held[i] = raced != null ? raced : read;
            }
            if (raced != null) {
                return raced.take();
            }
            keep(exchange.file(), read);
            return read.answer;
        }
    }

    /**
     * Puts {@code held} in, then lets answers go until both bounds hold; the newest always stays. Which go is the
     * clock sweep's choice (second chance): from the oldest on, an answer a run took since the sweep last passed it
     * is kept once more and its mark cleared, the first without a mark goes. That is the least recently used but
     * for the order among the answers taken since, which is what lets a hit write no reference.
     */
    private void keep(Path file, Held held) {
        Held before = recent.put(file, held);
        if (before != null) {
            bytes -= before.bytes;
            before.letGo();
        } else {
            order.addLast(file);
        }
        bytes += held.bytes;
        while ((recent.size() > capacity || bytes > capacityBytes) && recent.size() > 1) {
            Path eldest = order.pollFirst();
            Held h = recent.get(eldest);
            if (eldest.equals(file) || h.used) {
                h.used = false;
                order.addLast(eldest);
                continue;
            }
            recent.remove(eldest);
            bytes -= h.bytes;
            h.letGo();
        }
    }
}
