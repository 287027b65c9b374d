package dev.resilienceharness.clients.anthropic;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/**
 * Bedrock's InvokeModelWithResponseStream for an Anthropic model on 127.0.0.1, for recording through anthropic-java's
 * Bedrock backend: a path ending in {@code invoke-with-response-stream}, authorized by {@code Authorization: Bearer}
 * {@link MessagesStub#KEY}, answered in AWS event-stream frames written by AWS's own {@code eventstream} library, one
 * {@code chunk} per Messages event, its payload {@code {"bytes": base64, "p": padding}} as Bedrock sends it. The
 * patch step (its request names {@code write_file}) is answered with a tool use, any other with text.
 */
final class BedrockStub implements AutoCloseable {

    private final HttpServer server;
    private final List<String> paths = Collections.synchronizedList(new ArrayList<>());

    BedrockStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getRawPath();
            paths.add(path);
            boolean ok = path.endsWith("/invoke-with-response-stream")
                    && ("Bearer " + MessagesStub.KEY).equals(exchange.getRequestHeaders().getFirst("Authorization"));
            if (!ok) {
                exchange.sendResponseHeaders(403, -1);
                exchange.close();
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "application/vnd.amazon.eventstream");
            exchange.getResponseHeaders().add("x-amzn-bedrock-content-type", "application/json");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (String event : events(request.contains("write_file"))) {
                    chunk(out, event);
                }
            }
        });
        server.start();
    }

    /** Bedrock's base URL, below which the backend posts {@code model/{modelId}/...}. */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The paths posted to so far. */
    List<String> paths() {
        return List.copyOf(paths);
    }

    /** A text answer in {@link StreamingTest#PIECES}, or the patch step's {@code write_file} tool use. */
    static List<String> events(boolean tool) {
        List<String> out = new ArrayList<>();
        out.add("{\"type\":\"message_start\",\"message\":{\"id\":\"msg_bdrk_01\",\"type\":\"message\",\"role\":"
                + "\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[],\"stop_reason\":null,"
                + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":20,\"output_tokens\":1}}}");
        if (tool) {
            out.add("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\","
                    + "\"id\":\"toolu_bdrk_01\",\"name\":\"write_file\",\"input\":{}}}");
            for (String piece : List.of("{\\\"path\\\":\\\"src/main/java/Email", "Validator.java\\\",",
                    "\\\"content\\\":\\\"final class EmailValidator {}\\\"}")) {
                out.add("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\","
                        + "\"partial_json\":\"" + piece + "\"}}");
            }
        } else {
            out.add("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\","
                    + "\"text\":\"\"}}");
            for (String piece : StreamingTest.PIECES) {
                out.add("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\""
                        + piece + "\"}}");
            }
        }
        out.add("{\"type\":\"content_block_stop\",\"index\":0}");
        out.add("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + (tool ? "tool_use" : "end_turn")
                + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":12}}");
        out.add("{\"type\":\"message_stop\",\"amazon-bedrock-invocationMetrics\":{\"inputTokenCount\":20,"
                + "\"outputTokenCount\":12,\"invocationLatency\":410,\"firstByteLatency\":95}}");
        return out;
    }

    private static void chunk(OutputStream out, String event) throws IOException {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":event-type", HeaderValue.fromString("chunk"));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("event"));
        String payload = "{\"bytes\":\"" + Base64.getEncoder().encodeToString(event.getBytes(StandardCharsets.UTF_8))
                + "\",\"p\":\"abcdefghijkl\"}";
        new Message(headers, payload.getBytes(StandardCharsets.UTF_8)).encode(out);
        out.flush();
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
