package dev.resilienceharness.http;

import dev.resilienceharness.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns an OpenAI Responses event stream into the one {@code response} body a non-streaming call would have
 * returned: the response that {@code response.completed} (or {@code response.incomplete}) carries whole, as the API
 * sends it. An {@code error} event or {@code response.failed} is a stream that reported an error. The inverse of
 * {@link ResponseStreams}; {@link ChunkAssembler} hands it the events that are Responses events. Not thread-safe: one
 * instance assembles one stream.
 */
final class ResponseEvents implements NamedEvents {

    private ObjectNode response;
    private boolean done;

    /** Whether {@code chunk} is an event of a Responses stream: its {@code type} is {@code response.…} or a flat error. */
    static boolean isResponsesEvent(JsonNode chunk) {
        String type = chunk.path("type").asString("");
        return !chunk.has("choices") && (type.startsWith("response.")
                || type.equals("error") && chunk.has("message") && !chunk.has("error"));
    }

    /**
     * Applies one event.
     *
     * @return whether it carried a token (text, a refusal, tool-call arguments, or the start of a tool call)
     * @throws ChunkAssembler.BadChunk when the event reports an error
     */
    @Override
    public boolean apply(JsonNode event) throws ChunkAssembler.BadChunk {
        String type = event.path("type").asString("");
        switch (type) {
            case "error" -> throw new ChunkAssembler.BadChunk("the stream reported an error: "
                    + ChunkAssembler.excerpt(event.path("code").asString("error") + ": "
                            + event.path("message").asString("")));
            case "response.failed" -> throw new ChunkAssembler.BadChunk("the stream reported an error: "
                    + ChunkAssembler.excerpt(Json.compact(event.path("response").path("error"))));
            case "response.created", "response.in_progress" -> {
                if (event.get("response") instanceof ObjectNode o && response == null) {
                    response = o.deepCopy();
                }
                return false;
            }
            case "response.completed", "response.incomplete" -> {
                response = event.get("response") instanceof ObjectNode o ? o.deepCopy() : response;
                done = response != null;
                return false;
            }
            case "response.output_text.delta", "response.refusal.delta", "response.function_call_arguments.delta" -> {
                return !event.path("delta").asString("").isEmpty();
            }
            case "response.output_item.added" -> {
                return "function_call".equals(event.path("item").path("type").asString(""));
            }
            default -> {
                return false;
            }
        }
    }

    /** Whether {@code response.completed} (or {@code response.incomplete}) arrived with the response. */
    @Override
    public boolean done() {
        return done;
    }

    /** The response the stream ended with (or began with, when it has not ended). */
    @Override
    public ObjectNode body() {
        return response == null ? tools.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                : response.deepCopy();
    }
}
