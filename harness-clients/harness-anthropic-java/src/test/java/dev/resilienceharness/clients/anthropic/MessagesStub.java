package dev.resilienceharness.clients.anthropic;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Anthropic's Messages API on 127.0.0.1, for recording through the SDK: answers each step of {@link FixAgent} with a
 * message of its own (a tool_use for the patch step) when the request carries the expected key, 401 otherwise.
 */
final class MessagesStub implements AutoCloseable {

    static final String KEY = "sk-ant-api03-stub-key-for-the-loopback-provider";

    private final HttpServer server;
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());

    MessagesStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/messages", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(request);
            boolean authorised = KEY.equals(exchange.getRequestHeaders().getFirst("x-api-key"));
            byte[] body = (authorised ? answer(request, requests.size())
                    : "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.getResponseHeaders().add("request-id", "req_" + requests.size());
            exchange.sendResponseHeaders(authorised ? 200 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    /** The API's base URL, as a team would configure {@code provider.base_url}. */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    /** The request bodies served so far. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    /** The message answering the {@code n}-th request, {@code request}: a tool_use for the patch step, text otherwise. */
    static String answer(String request, int n) {
        String content;
        if (request.contains("write_file")) {
            content = "[{\"type\":\"tool_use\",\"id\":\"toolu_0" + n + "\",\"name\":\"write_file\",\"input\":{\"path\":"
                    + "\"src/main/java/EmailValidator.java\",\"content\":\"final class EmailValidator {}\"}}]";
        } else {
            String text = request.contains("Plan") ? "Allow a plus sign in the local part." : "The fix looks right.";
            content = "[{\"type\":\"text\",\"text\":\"" + text + "\"}]";
        }
        return "{\"id\":\"msg_0" + n + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":"
                + "\"claude-sonnet-4-5-20250929\",\"content\":" + content + ",\"stop_reason\":\""
                + (request.contains("write_file") ? "tool_use" : "end_turn") + "\",\"stop_sequence\":null,\"usage\":"
                + "{\"input_tokens\":20,\"output_tokens\":" + (10 + n) + "}}";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
