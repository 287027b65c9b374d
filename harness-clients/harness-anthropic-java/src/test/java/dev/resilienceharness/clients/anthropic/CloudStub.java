package dev.resilienceharness.clients.anthropic;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Anthropic's Messages API as a cloud serves it on 127.0.0.1, for recording through a backend: any path, authorized by
 * {@code Authorization: Bearer} {@link MessagesStub#KEY} (401 otherwise), each step of {@link FixAgent} answered as
 * {@link MessagesStub} answers it, and a path ending in {@code streamRawPredict} answered as server-sent events.
 */
final class CloudStub implements AutoCloseable {

    /** One request as it arrived. */
    record Received(String path, Map<String, List<String>> headers, String body) {
    }

    private final HttpServer server;
    private final List<Received> received = Collections.synchronizedList(new ArrayList<>());

    CloudStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getRawPath();
            received.add(new Received(path, Map.copyOf(exchange.getRequestHeaders()), request));
            boolean authorised = ("Bearer " + MessagesStub.KEY).equals(
                    exchange.getRequestHeaders().getFirst("Authorization"));
            if (authorised && path.endsWith(":streamRawPredict")) {
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                try (OutputStream out = exchange.getResponseBody()) {
                    stream(out);
                }
                return;
            }
            byte[] body = (authorised ? MessagesStub.answer(request, received.size())
                    : "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid token\"}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(authorised ? 200 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    /** The cloud's base URL, below which the SDK's path (without a leading {@code v1/}) is posted. */
    URI baseUrl(String prefix) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + prefix);
    }

    /** The requests served so far. */
    List<Received> received() {
        return List.copyOf(received);
    }

    /** A text answer as named events: message_start, the text block in {@link StreamingTest#PIECES}, message_stop. */
    private static void stream(OutputStream out) throws IOException {
        send(out, "message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_01\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5@20250929\",\"content\":[],\"stop_reason\":null,"
                + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":20,\"output_tokens\":1}}}");
        send(out, "content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                + "{\"type\":\"text\",\"text\":\"\"}}");
        for (String piece : StreamingTest.PIECES) {
            send(out, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                    + "{\"type\":\"text_delta\",\"text\":\"" + piece + "\"}}");
        }
        send(out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
        send(out, "message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":12}}");
        send(out, "message_stop", "{\"type\":\"message_stop\"}");
    }

    private static void send(OutputStream out, String event, String data) throws IOException {
        out.write(("event: " + event + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
