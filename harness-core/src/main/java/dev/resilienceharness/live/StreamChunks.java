package dev.resilienceharness.live;

import dev.resilienceharness.http.ChunkStreams;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Splits a {@code chat.completion} body into the {@code data:} payloads of the stream a provider would have sent
 * for it (see {@link ChunkStreams}, which does the work). The inverse of {@link StreamAssembler}.
 */
final class StreamChunks {

    /** Characters of content or arguments per chunk: small enough to look like a real stream. */
    static final int PIECE = ChunkStreams.PIECE;

    private StreamChunks() {
    }

    /**
     * The payloads, each one compact JSON or {@code [DONE]}.
     *
     * @param completion   the body to stream; anything without a {@code choices} array is sent as one event
     * @param includeUsage whether to end with a usage chunk, as {@code stream_options.include_usage} asks
     */
    static List<String> of(JsonNode completion, boolean includeUsage) {
        return ChunkStreams.of(completion, includeUsage);
    }

    /** {@code text} in pieces of {@link #PIECE} characters, never splitting a surrogate pair. */
    static List<String> pieces(String text) {
        return ChunkStreams.pieces(text);
    }
}
