package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.Json;
import java.util.Map;
import java.util.TreeMap;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns an OpenAI-style server-sent event stream of {@code chat.completion.chunk}s into the one
 * {@code chat.completion} body a non-streaming call would have returned: content deltas concatenated per choice,
 * tool-call argument deltas concatenated per tool-call index, the last finish reason and usage kept.
 *
 * <p>An Anthropic Messages stream (named events whose {@code type} is {@code message_start},
 * {@code content_block_delta}, ...) is assembled into a {@code message} instead (see {@link MessageEvents}), and ends
 * with {@code message_stop}; an OpenAI Responses stream ({@code response.created}, ...) ends with
 * {@code response.completed}, whose {@code response} it is (see {@link ResponseEvents}). A Gemini
 * {@code streamGenerateContent} stream (chunks with {@code candidates}) is assembled into one
 * {@code GenerateContentResponse}, done once every candidate has its {@code finishReason} (see {@link GeminiChunks}).
 * A Bedrock {@code ConverseStream} (events named by their {@code :event-type}) is assembled into a {@code Converse}
 * answer, done with its {@code metadata} event; an exception it reports is a {@link BadChunk} (see
 * {@link BedrockEvents}).
 *
 * <p>Fed one line at a time; an event is the {@code data:} lines up to a blank line. {@code [DONE]} ends the
 * stream. Not thread-safe: one instance assembles one stream. Recording ({@link StreamRecording}) and the replay
 * proxy use it alike.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ChunkAssembler {

    /** A stream chunk that is not JSON, or a chunk that reports an error. */
    public static final class BadChunk extends Exception {
        private static final long serialVersionUID = 1L;

        BadChunk(String message) {
            super(message, null, false, false);
        }
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int MAX_EVENT_CHARS = 4 * 1024 * 1024;

    private final StringBuilder data = new StringBuilder();
    private final Map<Integer, Choice> choices = new TreeMap<>();
    private boolean pendingData;
    private String pendingName;
    private String lastName;
    private String lastEvent;
    private int events;
    private boolean done;
    private boolean firstToken;
    private int chunks;
    private JsonNode id;
    private JsonNode created;
    private JsonNode model;
    private JsonNode systemFingerprint;
    private JsonNode serviceTier;
    private JsonNode usage;
    /**
     * Set once an Anthropic Messages event arrives (the stream is then assembled as a {@code message}) or an OpenAI
     * Responses event (the stream then ends with its {@code response}).
     */
    private NamedEvents named;

    private static final class Choice {
        String role;
        StringBuilder content;
        StringBuilder refusal;
        JsonNode finishReason;
        final Map<Integer, ToolCall> toolCalls = new TreeMap<>();
    }

    private static final class ToolCall {
        String id;
        String type;
        String name;
        final StringBuilder arguments = new StringBuilder();
    }

    /**
     * Reads one line of the stream.
     *
     * @return whether this line completed the first event that carried a token (content, refusal or tool call)
     * @throws BadChunk when a chunk is not JSON or reports an error
     */
    public boolean accept(String line) throws BadChunk {
        if (done) {
            return false;
        }
        if (line.isEmpty()) {
            return dispatch();
        }
        if (line.startsWith(":")) {
            return false; // an SSE comment, used as a keep-alive
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if ("event".equals(field)) {
            pendingName = value; // kept with the event it names, for the cassette's stream
            return false;
        }
        if (!"data".equals(field)) {
            return false; // id:, retry: carry nothing a completion needs
        }
        if (pendingData) {
            data.append('\n');
        }
        if (data.length() + value.length() > MAX_EVENT_CHARS) {
            throw new BadChunk("a stream event is larger than " + MAX_EVENT_CHARS + " characters");
        }
        data.append(value);
        pendingData = true;
        return false;
    }

    /** Ends the stream: dispatches an event not followed by a blank line. */
    public boolean finish() throws BadChunk {
        return dispatch();
    }

    /**
     * Whether {@code [DONE]} arrived, an Anthropic Messages stream's {@code message_stop}, or a Responses stream's
     * {@code response.completed}.
     */
    public boolean done() {
        return done;
    }

    /** Whether the stream said how it ended: {@code [DONE]}, or a finish reason on every choice seen. */
    public boolean complete() {
        if (done) {
            return true;
        }
        if (choices.isEmpty()) {
            return false;
        }
        for (Choice c : choices.values()) {
            if (c.finishReason == null || c.finishReason.isNull()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The API the stream speaks, as its events show: Messages, Responses or Gemini once one of their events arrived,
     * Chat Completions once a chunk of it did; {@code null} before any did.
     */
    public ApiShape shape() {
        if (named instanceof MessageEvents) {
            return ApiShape.MESSAGES;
        }
        if (named instanceof ResponseEvents) {
            return ApiShape.RESPONSES;
        }
        if (named instanceof GeminiChunks) {
            return ApiShape.GEMINI;
        }
        return chunks > 0 || done ? ApiShape.CHAT_COMPLETIONS : null;
    }

    /** How many events were dispatched, {@code [DONE]} and chunks that failed included. */
    public int events() {
        return events;
    }

    /** The data of the last event dispatched, or {@code null}. */
    public String lastEvent() {
        return lastEvent;
    }

    /** The {@code event:} name of the last event dispatched, or {@code null} when it had none. */
    public String lastEventName() {
        return lastName;
    }

    /** How many chunks were read. */
    public int chunks() {
        return chunks;
    }

    private boolean dispatch() throws BadChunk {
        if (!pendingData) {
            return false;
        }
        String event = data.toString();
        data.setLength(0);
        pendingData = false;
        lastEvent = event;
        lastName = pendingName;
        pendingName = null;
        events++;
        if ("[DONE]".equals(event.strip())) {
            done = true;
            return false;
        }
        JsonNode chunk;
        try {
            chunk = Json.readTree(event);
        } catch (JacksonException e) {
            throw new BadChunk("a stream chunk is not JSON: " + excerpt(event));
        }
        if (!chunk.isObject()) {
            throw new BadChunk("a stream chunk is not a JSON object: " + excerpt(event));
        }
        if (BedrockStreams.isException(lastName)) {
            throw new BadChunk("the stream reported an error: " + lastName + " " + excerpt(event));
        }
        if (named == null && "messageStart".equals(lastName)) {
            named = new BedrockEvents(); // a ConverseStream begins with messageStart; no SSE stream names one so
        }
        if (named instanceof BedrockEvents && BedrockStreams.isEvent(lastName)) {
            // A ConverseStream's payload does not say which event it is; its :event-type does.
            chunk = BedrockEvents.union(lastName, chunk);
        }
        if (chunk.has("error")) {
            throw new BadChunk("the stream reported an error: " + excerpt(Json.compact(chunk.get("error"))));
        }
        chunks++;
        if (named == null && ResponseEvents.isResponsesEvent(chunk)) {
            named = new ResponseEvents();
        } else if (named == null && MessageEvents.isMessagesEvent(chunk)) {
            named = new MessageEvents();
        } else if (named == null && GeminiChunks.isGeminiChunk(chunk)) {
            named = new GeminiChunks();
        }
        if (named != null) {
            boolean token = named.apply(chunk);
            done = named.done();
            return firstToken(token);
        }
        return apply(chunk);
    }

    /** Whether an event that carried a token, or not, is the first that did. */
    private boolean firstToken(boolean token) {
        if (token && !firstToken) {
            firstToken = true;
            return true;
        }
        return false;
    }

    private boolean apply(JsonNode chunk) {
        id = first(id, chunk.get("id"));
        created = first(created, chunk.get("created"));
        model = first(model, chunk.get("model"));
        systemFingerprint = last(systemFingerprint, chunk.get("system_fingerprint"));
        serviceTier = last(serviceTier, chunk.get("service_tier"));
        usage = last(usage, chunk.get("usage"));
        boolean token = false;
        JsonNode list = chunk.get("choices");
        if (list != null && list.isArray()) {
            for (JsonNode c : list) {
                token |= applyChoice(c);
            }
        }
        return firstToken(token);
    }

    private boolean applyChoice(JsonNode c) {
        Choice choice = choices.computeIfAbsent(c.path("index").asInt(0), i -> new Choice());
        JsonNode finish = c.get("finish_reason");
        if (finish != null && !finish.isNull()) {
            choice.finishReason = finish;
        }
        JsonNode delta = c.get("delta");
        if (delta == null || !delta.isObject()) {
            return false;
        }
        boolean token = false;
        if (choice.role == null && delta.path("role").isString()) {
            choice.role = delta.get("role").asString();
        }
        if (delta.path("content").isString()) {
            String text = delta.get("content").asString();
            choice.content = choice.content == null ? new StringBuilder() : choice.content;
            choice.content.append(text);
            token |= !text.isEmpty();
        }
        if (delta.path("refusal").isString()) {
            String text = delta.get("refusal").asString();
            choice.refusal = choice.refusal == null ? new StringBuilder() : choice.refusal;
            choice.refusal.append(text);
            token |= !text.isEmpty();
        }
        JsonNode calls = delta.get("tool_calls");
        if (calls != null && calls.isArray()) {
            for (JsonNode call : calls) {
                ToolCall tc = choice.toolCalls.computeIfAbsent(call.path("index").asInt(choice.toolCalls.size()),
                        i -> new ToolCall());
                if (tc.id == null && call.path("id").isString()) {
                    tc.id = call.get("id").asString();
                }
                if (tc.type == null && call.path("type").isString()) {
                    tc.type = call.get("type").asString();
                }
                JsonNode fn = call.get("function");
                if (fn != null) {
                    String name = fn.path("name").asString("");
                    if ((tc.name == null || tc.name.isEmpty()) && !name.isEmpty()) {
                        tc.name = name;
                    }
                    if (fn.path("arguments").isString()) {
                        tc.arguments.append(fn.get("arguments").asString());
                    }
                }
                token = true;
            }
        }
        return token;
    }

    private static JsonNode first(JsonNode kept, JsonNode next) {
        return kept != null || next == null || next.isNull() ? kept : next;
    }

    private static JsonNode last(JsonNode kept, JsonNode next) {
        return next == null || next.isNull() ? kept : next;
    }

    /**
     * The assembled {@code chat.completion}, keys in the order a non-streaming answer has them; for an Anthropic
     * Messages stream, the assembled {@code message}; for a Responses stream, its {@code response}.
     */
    public ObjectNode completion() {
        if (named != null) {
            return named.body();
        }
        ObjectNode out = NODES.objectNode();
        putIf(out, "id", id);
        out.put("object", "chat.completion");
        putIf(out, "created", created);
        putIf(out, "model", model);
        ArrayNode list = out.putArray("choices");
        for (Map.Entry<Integer, Choice> e : choices.entrySet()) {
            Choice c = e.getValue();
            ObjectNode choice = list.addObject();
            choice.put("index", e.getKey());
            ObjectNode message = choice.putObject("message");
            message.put("role", c.role == null ? "assistant" : c.role);
            if (c.content == null) {
                message.putNull("content");
            } else {
                message.put("content", c.content.toString());
            }
            if (c.refusal != null) {
                message.put("refusal", c.refusal.toString());
            }
            if (!c.toolCalls.isEmpty()) {
                ArrayNode calls = message.putArray("tool_calls");
                for (ToolCall tc : c.toolCalls.values()) {
                    ObjectNode call = calls.addObject();
                    if (tc.id != null) {
                        call.put("id", tc.id);
                    }
                    call.put("type", tc.type == null ? "function" : tc.type);
                    ObjectNode fn = call.putObject("function");
                    fn.put("name", tc.name == null ? "" : tc.name);
                    fn.put("arguments", tc.arguments.toString());
                }
            }
            if (c.finishReason == null) {
                choice.putNull("finish_reason");
            } else {
                choice.set("finish_reason", c.finishReason);
            }
        }
        putIf(out, "usage", usage);
        putIf(out, "service_tier", serviceTier);
        putIf(out, "system_fingerprint", systemFingerprint);
        return out;
    }

    private static void putIf(ObjectNode out, String key, JsonNode value) {
        if (value != null) {
            out.set(key, value.deepCopy());
        }
    }

    /** An event on one line, at most 200 characters of it, for a message. */
    static String excerpt(String body) {
        String one = body.replaceAll("[\\s\\p{Cntrl}]+", " ").strip();
        return one.length() > 200 ? one.substring(0, 200) + "..." : one;
    }
}
