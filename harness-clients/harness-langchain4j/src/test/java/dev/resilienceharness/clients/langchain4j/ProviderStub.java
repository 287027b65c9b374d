package dev.resilienceharness.clients.langchain4j;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An OpenAI-compatible provider on 127.0.0.1 for recording through langchain4j: answers
 * {@code POST /v1/chat/completions} with a chat completion naming the op its prompt is for (streamed in chunks when
 * the request streams), a tool call for the request that offers one, and 401 for any key but {@link #KEY};
 * {@code POST /v1/responses} with a Responses stream of {@link #RESPONSES_TEXT}, or that response whole.
 */
final class ProviderStub implements AutoCloseable {

    static final String KEY = "sk-stub-0123456789abcdef";

    private final HttpServer server;
    /** Every request body the stub was sent, in order. */
    final List<String> received = new CopyOnWriteArrayList<>();

    ProviderStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(request);
            boolean authorised = ("Bearer " + KEY).equals(exchange.getRequestHeaders().getFirst("Authorization"));
            int n = received.size();
            String message = request.contains("\"tools\"")
                    ? "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_" + n + "\",\"type\":"
                            + "\"function\",\"function\":{\"name\":\"apply_patch\",\"arguments\":"
                            + "\"{\\\"file\\\":\\\"App.java\\\",\\\"diff\\\":\\\"-a\\\\n+b\\\"}\"}}]}"
                    : "{\"role\":\"assistant\",\"content\":\"answer " + n + "\"}";
            byte[] body = ("{\"id\":\"chatcmpl-" + n + "\",\"object\":\"chat.completion\",\"created\":"
                    + (1_767_225_600 + n) + ",\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,"
                    + "\"message\":" + message + ",\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}}")
                    .getBytes(StandardCharsets.UTF_8);
            if (authorised && request.replace(" ", "").contains("\"stream\":true")) {
                // As a provider streams a chat completion: a role chunk, the content in pieces, the finish, [DONE].
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                String head = "{\"id\":\"chatcmpl-" + n + "\",\"object\":\"chat.completion.chunk\",\"created\":"
                        + (1_767_225_600 + n) + ",\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,"
                        + "\"delta\":";
                try (var out = exchange.getResponseBody()) {
                    for (String delta : List.of("{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null",
                            "{\"content\":\"streamed \"},\"finish_reason\":null",
                            "{\"content\":\"answer " + n + "\"},\"finish_reason\":null", "{},\"finish_reason\":\"stop\"")) {
                        out.write(("data: " + head + delta + "}]}\n\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                    out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
                }
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(authorised ? 200 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/v1/responses", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(request);
            if (!request.replace(" ", "").contains("\"stream\":true")) {
                // Asked whole: the response the stream's response.completed carries.
                String last = RESPONSES_EVENTS.get(RESPONSES_EVENTS.size() - 1)[1];
                byte[] body = last.substring("\"response\":".length()).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (var out = exchange.getResponseBody()) {
                for (int i = 0; i < RESPONSES_EVENTS.size(); i++) {
                    String[] e = RESPONSES_EVENTS.get(i);
                    out.write(("event: " + e[0] + "\ndata: {\"type\":\"" + e[0] + "\"," + e[1] + ",\"sequence_number\":" + i
                            + "}\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        });
        server.start();
    }

    /** The text of the Responses answer the stub streams. */
    static final String RESPONSES_TEXT = "1. reproduce 2. fix 3. test";

    private static final String RESPONSE = "{\"id\":\"resp_stub_1\",\"object\":\"response\",\"created_at\":1767225601,"
            + "\"status\":\"%s\",\"model\":\"gpt-4.1-mini-2025-04-14\",\"output\":%s,\"usage\":%s}";
    private static final String MESSAGE = "{\"type\":\"message\",\"id\":\"msg_stub_1\",\"status\":\"%s\",\"role\":"
            + "\"assistant\",\"content\":%s}";
    private static final String PART = "{\"type\":\"output_text\",\"annotations\":[],\"text\":\"%s\"}";
    private static final String AT = "\"item_id\":\"msg_stub_1\",\"output_index\":0,\"content_index\":0";

    /** A Responses stream as the API sends it: each event's type and the rest of its fields. */
    static final List<String[]> RESPONSES_EVENTS = List.of(
            new String[] {"response.created", "\"response\":" + String.format(RESPONSE, "in_progress", "[]", "null")},
            new String[] {"response.in_progress", "\"response\":" + String.format(RESPONSE, "in_progress", "[]", "null")},
            new String[] {"response.output_item.added", "\"output_index\":0,\"item\":"
                    + String.format(MESSAGE, "in_progress", "[]")},
            new String[] {"response.content_part.added", AT + ",\"part\":" + String.format(PART, "")},
            new String[] {"response.output_text.delta", AT + ",\"delta\":\"1. reproduce\",\"logprobs\":[]"},
            new String[] {"response.output_text.delta", AT + ",\"delta\":\" 2. fix\",\"logprobs\":[]"},
            new String[] {"response.output_text.delta", AT + ",\"delta\":\" 3. test\",\"logprobs\":[]"},
            new String[] {"response.output_text.done", AT + ",\"text\":\"" + RESPONSES_TEXT + "\",\"logprobs\":[]"},
            new String[] {"response.content_part.done", AT + ",\"part\":" + String.format(PART, RESPONSES_TEXT)},
            new String[] {"response.output_item.done", "\"output_index\":0,\"item\":" + String.format(MESSAGE,
                    "completed", "[" + String.format(PART, RESPONSES_TEXT) + "]")},
            new String[] {"response.completed", "\"response\":" + String.format(RESPONSE, "completed", "["
                    + String.format(MESSAGE, "completed", "[" + String.format(PART, RESPONSES_TEXT) + "]") + "]",
                    "{\"input_tokens\":11,\"output_tokens\":9,\"total_tokens\":20}")});

    /** The base URL a team would give its production model. */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
