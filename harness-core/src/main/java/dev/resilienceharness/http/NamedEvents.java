package dev.resilienceharness.http;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stream of named events that adds up to one answer body: Anthropic Messages ({@link MessageEvents}) or OpenAI
 * Responses ({@link ResponseEvents}). {@link ChunkAssembler} hands one the events once the first says which it is.
 */
interface NamedEvents {

    /**
     * Applies one event.
     *
     * @return whether it carried a token
     * @throws ChunkAssembler.BadChunk when the event reports an error
     */
    boolean apply(JsonNode event) throws ChunkAssembler.BadChunk;

    /** Whether the event that ends the stream arrived. */
    boolean done();

    /** The answer the events add up to. */
    ObjectNode body();
}
