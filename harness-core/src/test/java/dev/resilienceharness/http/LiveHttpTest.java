package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class LiveHttpTest {

    @Test
    void forwardsTheSdksRequestWithTheRealKeyInTheHeaderTheSdkUsed() throws Exception {
        Map<String, String> seen = new ConcurrentHashMap<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/", exchange -> {
            seen.put("path", exchange.getRequestURI().getPath());
            seen.put("x-api-key", String.valueOf(exchange.getRequestHeaders().getFirst("x-api-key")));
            seen.put("authorization", String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            seen.put("anthropic-version", String.valueOf(exchange.getRequestHeaders().getFirst("anthropic-version")));
            seen.put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("retry-after", "3");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            LiveHttp live = LiveHttp.to(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1"),
                    "real-key", Duration.ofSeconds(10));
            HttpAnswer.Response r = live.send(new HttpAttempt("anthropic-java 3.16.0", "POST", "/v1/messages",
                    Map.of("x-api-key", List.of("harness-replay"), "anthropic-version", List.of("2023-06-01")),
                    "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8), null, 0));
            assertEquals(200, r.status());
            assertEquals("{\"ok\":true}", r.text());
            assertEquals("3", r.header("Retry-After"));
            assertEquals("/v1/messages", seen.get("path"));
            assertEquals("real-key", seen.get("x-api-key"), "the SDK's placeholder key is replaced");
            assertEquals("null", seen.get("authorization"));
            assertEquals("2023-06-01", seen.get("anthropic-version"), "the SDK's own headers are kept");
            assertEquals("{\"model\":\"m\"}", seen.get("body"));

            live.send(new HttpAttempt("openai-java 4.105.0", "POST", "chat/completions",
                    Map.of("Authorization", List.of("Bearer harness-replay")), new byte[] {'{', '}'}, null, 0));
            assertEquals("Bearer real-key", seen.get("authorization"));
            assertEquals("/v1/chat/completions", seen.get("path"));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aGeminiAttemptCarriesTheKeyAsXGoogApiKeyAndStreamsWithAltSse() throws Exception {
        Map<String, String> seen = new ConcurrentHashMap<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1beta/", exchange -> {
            seen.put("uri", exchange.getRequestURI().toString());
            seen.put("x-goog-api-key", String.valueOf(exchange.getRequestHeaders().getFirst("x-goog-api-key")));
            seen.put("authorization", String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write(new byte[] {'{', '}'});
            exchange.close();
        });
        server.start();
        try {
            LiveHttp live = LiveHttp.to(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"),
                    "real-key", Duration.ofSeconds(10));
            live.send(new HttpAttempt("google-genai 2.3.0", "POST",
                    "v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
                    Map.of("x-goog-api-key", List.of("harness-replay")), new byte[] {'{', '}'}, null, 0));
            assertEquals("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", seen.get("uri"));
            assertEquals("real-key", seen.get("x-goog-api-key"));
            assertEquals("null", seen.get("authorization"));
            live.send(new HttpAttempt("google-genai 2.3.0", "POST", "v1beta/models/gemini-2.5-flash:generateContent",
                    Map.of("x-goog-api-key", List.of("harness-replay")), new byte[] {'{', '}'}, null, 0));
            assertEquals("/v1beta/models/gemini-2.5-flash:generateContent", seen.get("uri"));
        } finally {
            server.stop(0);
        }
    }

    /** A Bedrock attempt as the AWS SDK signs it with the adapter's placeholder credentials. */
    private static HttpAttempt placeholderSigned() {
        return new HttpAttempt("aws-sdk-bedrockruntime 2.59.1", "POST", "model/amazon.nova-lite-v1%3A0/converse",
                Map.of("Authorization", List.of("AWS4-HMAC-SHA256 Credential=harness-replay/20260101/us-east-1/bedrock/"
                        + "aws4_request, SignedHeaders=host;x-amz-date, Signature=00"), "X-Amz-Date",
                        List.of("20260101T000000Z"), "X-Amz-Security-Token", List.of("placeholder-token"),
                        "x-amz-content-sha256", List.of("placeholder-hash"), "amz-sdk-request",
                        List.of("attempt=1; max=3"), "Content-Type", List.of("application/json")),
                "{\"messages\":[]}".getBytes(StandardCharsets.UTF_8), null, 0);
    }

    private static HttpServer bedrock(Map<String, String> seen) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/model/", exchange -> {
            seen.put("path", exchange.getRequestURI().getRawPath());
            for (String h : List.of("Authorization", "X-Amz-Date", "X-Amz-Security-Token", "x-amz-content-sha256",
                    "amz-sdk-request", "Host")) {
                seen.put(h.toLowerCase(java.util.Locale.ROOT), String.valueOf(exchange.getRequestHeaders()
                        .get(h)));
            }
            seen.put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write(new byte[] {'{', '}'});
            exchange.close();
        });
        server.start();
        return server;
    }

    @Test
    void aBedrockAttemptLosesTheSdksPlaceholderSignatureAndCarriesTheApiKeyAsABearerToken() throws Exception {
        Map<String, String> seen = new ConcurrentHashMap<>();
        HttpServer server = bedrock(seen);
        try {
            LiveHttp.to(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), "bedrock-api-key",
                    Duration.ofSeconds(10)).send(placeholderSigned());
            assertEquals("/model/amazon.nova-lite-v1%3A0/converse", seen.get("path"));
            assertEquals("[Bearer bedrock-api-key]", seen.get("authorization"));
            assertEquals("null", seen.get("x-amz-date"));
            assertEquals("null", seen.get("x-amz-security-token"));
            assertEquals("null", seen.get("x-amz-content-sha256"));
            assertEquals("[attempt=1; max=3]", seen.get("amz-sdk-request"), "the SDK's other headers are kept");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aSigningForwarderSignsABedrockAttemptAnewForTheRealHost() throws Exception {
        Map<String, String> seen = new ConcurrentHashMap<>();
        HttpServer server = bedrock(seen);
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            AwsSigV4 signer = AwsSigV4.of(new AwsSigV4.Credentials("AKIDEXAMPLE", "real-secret", "real-token"),
                    "us-east-1", "bedrock");
            LiveHttp.signing(base, signer, Duration.ofSeconds(10)).send(placeholderSigned());
            String date = seen.get("x-amz-date").replaceAll("[\\[\\]]", "");
            assertTrue(!date.equals("20260101T000000Z"), "the placeholder date is replaced");
            assertEquals("[real-token]", seen.get("x-amz-security-token"));
            assertEquals("[" + AwsSigV4.hex(AwsSigV4.sha256(seen.get("body").getBytes(StandardCharsets.UTF_8)))
                    + "]", seen.get("x-amz-content-sha256"), "the body's own hash, not the placeholder's");
            java.time.Instant at = java.time.LocalDateTime.parse(date, java.time.format.DateTimeFormatter
                    .ofPattern("yyyyMMdd'T'HHmmss'Z'")).toInstant(java.time.ZoneOffset.UTC);
            String expected = signer.sign("POST", base.resolve("/model/amazon.nova-lite-v1%3A0/converse"), Map.of(),
                    seen.get("body").getBytes(StandardCharsets.UTF_8), at, true).get("Authorization");
            assertEquals("[" + expected + "]", seen.get("authorization"));
            assertTrue(seen.get("host").contains("127.0.0.1:" + server.getAddress().getPort()), seen.get("host"));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aSigningForwarderSignsAnAnthropicModelsInvokeAttemptFromAnthropicJavasBedrockBackendToo() throws Exception {
        Map<String, String> seen = new ConcurrentHashMap<>();
        HttpServer server = bedrock(seen);
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            AwsSigV4 signer = AwsSigV4.of(new AwsSigV4.Credentials("AKIDEXAMPLE", "real-secret", null),
                    "us-east-1", "bedrock");
            String path = "model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke";
            LiveHttp.signing(base, signer, Duration.ofSeconds(10)).send(new HttpAttempt("anthropic-java 3.16.0",
                    "POST", path, Map.of("Authorization", List.of("Bearer harness-replay"), "Content-Type",
                    List.of("application/json")), "{\"anthropic_version\":\"v\"}".getBytes(StandardCharsets.UTF_8),
                    null, 0));
            assertEquals("/" + path, seen.get("path"));
            String date = seen.get("x-amz-date").replaceAll("[\\[\\]]", "");
            java.time.Instant at = java.time.LocalDateTime.parse(date, java.time.format.DateTimeFormatter
                    .ofPattern("yyyyMMdd'T'HHmmss'Z'")).toInstant(java.time.ZoneOffset.UTC);
            String expected = signer.sign("POST", base.resolve("/" + path), Map.of(),
                    seen.get("body").getBytes(StandardCharsets.UTF_8), at, true).get("Authorization");
            assertEquals("[" + expected + "]", seen.get("authorization"), "signed, not the backend's placeholder key");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void recordsThroughAGatewayThatSpeaksOnlyHttp11() throws Exception {
        // As LiteLLM's proxy, mock servers and egress proxies on plain http:// do: a request that asks to upgrade the
        // connection (Upgrade: h2c) is answered 404.
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        Map<String, String> seen = new ConcurrentHashMap<>();
        server.createContext("/v1/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            String upgrade = exchange.getRequestHeaders().getFirst("Upgrade");
            seen.put("upgrade", String.valueOf(upgrade));
            byte[] body = (upgrade == null ? "{\"ok\":true}" : "not found").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(upgrade == null ? 200 : 404, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            LiveHttp live = LiveHttp.to(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1"),
                    "real-key", Duration.ofSeconds(10));
            HttpAnswer.Response r = live.send(new HttpAttempt("openai-java 4.105.0", "POST", "chat/completions",
                    Map.of("Authorization", List.of("Bearer harness-replay")), new byte[] {'{', '}'}, null, 0));
            assertEquals("null", seen.get("upgrade"), "no upgrade to h2c was asked for");
            assertEquals(200, r.status());
            assertEquals("{\"ok\":true}", r.text());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anUnreachableProviderIsAnIoErrorNamingTheAddress() {
        LiveHttp live = LiveHttp.to(URI.create("http://127.0.0.1:1/v1"), "k", Duration.ofSeconds(5));
        IOException e = assertThrows(IOException.class, () -> live.send(new HttpAttempt("s", "POST",
                "chat/completions", Map.of(), new byte[] {'{', '}'}, null, 0)));
        assertTrue(e.getMessage().startsWith("cannot reach http://127.0.0.1:1/v1/chat/completions: "), e.getMessage());
    }

    @Test
    void aBedrockEventStreamIsReadFrameByFrameIntoItsEvents() throws Exception {
        List<dev.resilienceharness.cassette.StreamEvent> sent = BedrockStreams.of(BedrockStreamsTest.ANSWER, 0);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/model/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/vnd.amazon.eventstream");
            exchange.sendResponseHeaders(200, 0);
            try (var out = exchange.getResponseBody()) {
                for (var e : sent) {
                    out.write(BedrockStreams.frame(e));
                    out.flush();
                }
            }
        });
        server.start();
        try {
            LiveHttp live = LiveHttp.to(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"),
                    null, Duration.ofSeconds(10));
            HttpAnswer.Response r = live.send(new HttpAttempt("aws-sdk-bedrockruntime 2.59.1", "POST",
                    "model/m/converse-stream", Map.of(), new byte[] {'{', '}'}, null, 0));
            assertEquals(sent.stream().map(e -> e.event() + " " + e.data()).toList(),
                    r.events().stream().map(e -> e.event() + " " + e.data()).toList());
            assertEquals(sent.size(), EventStreamFrames.readAll(r.body()).size(), "the body is the frames again");
            assertEquals(BedrockStreamsTest.ANSWER, StreamRecording.assemble(r.events()).completion());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aBedrockStreamOfAnAnthropicModelIsReadChunkByChunkIntoTheMessagesEventsItCarries() throws Exception {
        JsonNode answer = Json.readTree("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                + "\"model\":\"claude-x\",\"content\":[{\"type\":\"text\",\"text\":\"Allow a plus sign.\"}],"
                + "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":9,\"output_tokens\":5}}");
        List<dev.resilienceharness.cassette.StreamEvent> sent = MessageStreams.of(answer, 0);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/model/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/vnd.amazon.eventstream");
            exchange.getResponseHeaders().add("x-amzn-bedrock-content-type", "application/json");
            exchange.sendResponseHeaders(200, 0);
            try (var out = exchange.getResponseBody()) {
                for (var e : sent) {
                    out.write(BedrockChunks.frame(e));
                    out.flush();
                }
            }
        });
        server.start();
        try {
            LiveHttp live = LiveHttp.to(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"),
                    null, Duration.ofSeconds(10));
            HttpAnswer.Response r = live.send(new HttpAttempt("anthropic-java 3.16.0", "POST",
                    "model/anthropic.claude-x-v1:0/invoke-with-response-stream", Map.of(), new byte[] {'{', '}'},
                    null, 0));
            assertEquals(sent.stream().map(e -> e.event() + " " + e.data()).toList(),
                    r.events().stream().map(e -> e.event() + " " + e.data()).toList(),
                    "each chunk kept as the Messages event it carries, named by its type");
            assertEquals(List.of("chunk"), EventStreamFrames.readAll(r.body()).stream()
                    .map(f -> f.header(":event-type")).distinct().toList(), "the body is the chunk frames again");
            assertEquals("application/json", r.headers().get("x-amzn-bedrock-content-type").get(0));
            assertEquals("Allow a plus sign.", StreamReplay.text(r.events()));
        } finally {
            server.stop(0);
        }
    }
}
