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
 * {@code POST /v1/chat/completions} with a chat completion naming the op its prompt is for, a tool call for the
 * request that offers one, and 401 for any key but {@link #KEY}.
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
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(authorised ? 200 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    /** The base URL a team would give its production model. */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
