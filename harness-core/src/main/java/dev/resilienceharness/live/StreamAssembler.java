package dev.resilienceharness.live;

import dev.resilienceharness.http.ChunkAssembler;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns an OpenAI-style server-sent event stream of {@code chat.completion.chunk}s into the one
 * {@code chat.completion} body a non-streaming call would have returned (see {@link ChunkAssembler}, which does the
 * work; this is its face inside this package). Fed one line at a time. Not thread-safe: one instance assembles one
 * stream.
 */
final class StreamAssembler {

    /** A stream chunk that is not JSON, or a chunk that reports an error. */
    static final class BadChunk extends Exception {
        private static final long serialVersionUID = 1L;

        BadChunk(String message) {
            super(message, null, false, false);
        }
    }

    private final ChunkAssembler assembler = new ChunkAssembler();

    /**
     * Reads one line of the stream.
     *
     * @return whether this line completed the first event that carried a token (content, refusal or tool call)
     * @throws BadChunk when a chunk is not JSON or reports an error
     */
    boolean accept(String line) throws BadChunk {
        try {
            return assembler.accept(line);
        } catch (ChunkAssembler.BadChunk e) {
            throw new BadChunk(e.getMessage());
        }
    }

    /** Ends the stream: dispatches an event not followed by a blank line. */
    boolean finish() throws BadChunk {
        try {
            return assembler.finish();
        } catch (ChunkAssembler.BadChunk e) {
            throw new BadChunk(e.getMessage());
        }
    }

    /** Whether {@code [DONE]} arrived. */
    boolean done() {
        return assembler.done();
    }

    /** Whether the stream said how it ended: {@code [DONE]}, or a finish reason on every choice seen. */
    boolean complete() {
        return assembler.complete();
    }

    /** How many chunks were read. */
    int chunks() {
        return assembler.chunks();
    }

    /** The assembled {@code chat.completion}, keys in the order a non-streaming answer has them. */
    ObjectNode completion() {
        return assembler.completion();
    }
}
