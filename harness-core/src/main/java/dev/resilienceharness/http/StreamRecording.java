package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteStream;
import dev.resilienceharness.cassette.StreamEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * Records a server-sent event stream as it arrives: every event with its offset since the request, and the
 * {@code chat.completion} the events add up to (see {@link ChunkAssembler}), which a cassette keeps as its
 * {@code response}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class StreamRecording {

    /**
     * A stream as recorded.
     *
     * @param completion   the assembled answer
     * @param stream       every event with its offset
     * @param firstTokenMs when the first event carrying a token arrived, or {@code null} when none did
     * @param totalMs      when the stream ended
     */
    public record Captured(ObjectNode completion, CassetteStream stream, Long firstTokenMs, long totalMs) {
    }

    /** A stream whose chunks are not JSON, that reported an error, or that ended before saying so. */
    public static final class Broken extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean endedEarly;

        Broken(String message) {
            this(message, false);
        }

        private Broken(String message, boolean endedEarly) {
            super(message, null, false, false);
            this.endedEarly = endedEarly;
        }

        /** Whether the stream only ended before saying it was done, as a dropped connection ends it. */
        public boolean endedEarly() {
            return endedEarly;
        }
    }

    /** A stream that ended before saying it was done, when nothing says which API it is. */
    static final String ENDED_EARLY = "the event stream ended before [DONE] (or message_stop, or response.completed)";

    /**
     * A stream of {@code shape} that ended before saying it was done, naming the event that says so in that API, or
     * {@link #ENDED_EARLY} when {@code shape} is {@code null}.
     */
    static String endedEarly(ApiShape shape) {
        if (shape == null) {
            return ENDED_EARLY;
        }
        return "the event stream ended before " + switch (shape) {
            case CHAT_COMPLETIONS -> "[DONE] (or a finish_reason on every choice)";
            case MESSAGES -> "message_stop";
            case RESPONSES -> "response.completed";
            case GEMINI -> "a chunk giving every candidate its finishReason";
            case BEDROCK -> "messageStop";
        };
    }

    /** The message for a stream ended early: the API its events spoke, else the op's, named. */
    private static String endedEarly(ChunkAssembler assembler, ApiShape shape) {
        return endedEarly(assembler.shape() != null ? assembler.shape() : shape);
    }

    private StreamRecording() {
    }

    /**
     * Reads {@code body} to its end (or {@code [DONE]}), stamping each event with {@code sinceRequestMs}.
     *
     * @throws Broken      when a chunk is broken or the stream ends before {@code [DONE]} or a finish reason
     * @throws IOException when reading fails
     */
    public static Captured read(InputStream body, LongSupplier sinceRequestMs) throws IOException, Broken {
        return read(body, sinceRequestMs, null);
    }

    /**
     * Reads {@code body} as {@link #read(InputStream, LongSupplier)} does; a stream that ends early is said to end
     * before the end marker of the API its events spoke, else of {@code shape} (the op's API, or {@code null}).
     *
     * @throws Broken      when a chunk is broken or the stream ends before its end marker
     * @throws IOException when reading fails
     */
    public static Captured read(InputStream body, LongSupplier sinceRequestMs, ApiShape shape)
            throws IOException, Broken {
        ChunkAssembler assembler = new ChunkAssembler();
        List<StreamEvent> events = new ArrayList<>();
        Long firstTokenMs = null;
        BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        try {
            String line;
            while (!assembler.done() && (line = reader.readLine()) != null) {
                int before = assembler.events();
                boolean first = accept(assembler, line);
                long now = sinceRequestMs.getAsLong();
                if (assembler.events() > before) {
                    events.add(new StreamEvent(now, assembler.lastEventName(), assembler.lastEvent()));
                }
                if (first && firstTokenMs == null) {
                    firstTokenMs = now;
                }
            }
            int before = assembler.events();
            boolean first = assembler.finish();
            long now = sinceRequestMs.getAsLong();
            if (assembler.events() > before) {
                events.add(new StreamEvent(now, assembler.lastEventName(), assembler.lastEvent()));
            }
            if (first && firstTokenMs == null) {
                firstTokenMs = now;
            }
        } catch (ChunkAssembler.BadChunk e) {
            throw new Broken(e.getMessage());
        }
        if (!assembler.complete()) {
            throw new Broken(endedEarly(assembler, shape), true);
        }
        return new Captured(assembler.completion(), new CassetteStream(monotonic(events)), firstTokenMs,
                sinceRequestMs.getAsLong());
    }

    /** The answer recorded {@code events} add up to. */
    public static Captured assemble(List<StreamEvent> events) throws Broken {
        return assemble(events, null);
    }

    /**
     * The answer recorded {@code events} add up to; when they end early, the end marker of the API they spoke, else
     * of {@code shape} (the op's API, or {@code null}), is named.
     */
    public static Captured assemble(List<StreamEvent> events, ApiShape shape) throws Broken {
        ChunkAssembler assembler = new ChunkAssembler();
        Long firstTokenMs = null;
        try {
            for (StreamEvent e : events) {
                for (String line : e.wire().split("\n", -1)) {
                    if (accept(assembler, line) && firstTokenMs == null) {
                        firstTokenMs = e.atMs();
                    }
                }
            }
            assembler.finish();
        } catch (ChunkAssembler.BadChunk e) {
            throw new Broken(e.getMessage());
        }
        if (!assembler.complete()) {
            throw new Broken(endedEarly(assembler, shape), true);
        }
        long total = events.isEmpty() ? 0 : events.get(events.size() - 1).atMs();
        return new Captured(assembler.completion(), new CassetteStream(events), firstTokenMs, total);
    }

    private static boolean accept(ChunkAssembler assembler, String line) throws ChunkAssembler.BadChunk {
        return assembler.accept(line);
    }

    /** A clock that steps back (it never should) cannot make the events look out of order. */
    private static List<StreamEvent> monotonic(List<StreamEvent> events) {
        List<StreamEvent> out = new ArrayList<>(events.size());
        long last = 0;
        for (StreamEvent e : events) {
            long at = Math.max(last, e.atMs());
            out.add(at == e.atMs() ? e : new StreamEvent(at, e.event(), e.data()));
            last = at;
        }
        return out;
    }
}
