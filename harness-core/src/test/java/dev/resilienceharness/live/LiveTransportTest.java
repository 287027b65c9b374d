package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore.Recorded;
import dev.resilienceharness.config.Provider;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

class LiveTransportTest {

    static final String KEY = ProviderStub.KEY;
    static final Map<String, String> ENV = ProviderStub.ENV;

    private ProviderStub stub;
    private LiveTransport live;

    @BeforeEach
    void start() throws Exception {
        stub = ProviderStub.start();
        live = LiveTransport.connect(new Provider(stub.baseUrl(), "PROVIDER_API_KEY"), ENV::get,
                Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    static ObjectNode request(String content) {
        return (ObjectNode) Json.readTree("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + content + "\"}],\"temperature\":0.5}");
    }

    @Test
    void postsTheDeclaredRequestWithTheKeyAsABearerToken() throws Exception {
        ObjectNode req = request("plan the fix");
        Recorded r = live.send("plan", req);
        assertEquals("answer to plan the fix", r.response().get("choices").get(0).get("message").get("content")
                .asString());
        ProviderStub.Received got = stub.received().get(0);
        assertEquals("POST", got.method());
        assertEquals("/v1/chat/completions", got.path());
        assertEquals("Bearer " + KEY, got.header("authorization"));
        assertEquals("application/json", got.header("content-type"));
        assertEquals(Json.compact(req), got.body(), "the request is sent exactly as declared, nothing added");
        assertNull(r.timing().firstTokenMs(), "a non-streaming answer has no first-token time");
        assertTrue(r.timing().totalMs() >= 0);
    }

    @Test
    void aTrailingSlashInTheBaseUrlIsNotDoubled() {
        assertEquals(URI.create("https://llm.example.test/v1/chat/completions"),
                LiveTransport.endpoint(URI.create("https://llm.example.test/v1/")));
        assertEquals(URI.create("https://llm.example.test/v1/chat/completions"),
                LiveTransport.endpoint(URI.create("https://llm.example.test/v1")));
        assertEquals(URI.create("https://api.anthropic.test/v1/messages"), LiveTransport.endpoint(
                URI.create("https://api.anthropic.test/v1/"), dev.resilienceharness.http.ApiShape.MESSAGES));
        assertEquals(URI.create("https://llm.example.test/v1/responses"), LiveTransport.endpoint(
                URI.create("https://llm.example.test/v1"), dev.resilienceharness.http.ApiShape.RESPONSES));
    }

    @Test
    void aMessagesRequestCarriesAnthropicsHeaders() throws Exception {
        stub.then(ProviderStub.ok("{\"type\":\"message\",\"content\":[]}"));
        ObjectNode request = (ObjectNode) Json.readTree("{\"model\":\"c\",\"max_tokens\":5,\"messages\":[]}");
        assertEquals("message", live.send("plan", request, dev.resilienceharness.http.ApiShape.MESSAGES).response()
                .get("type").asString());
        ProviderStub.Received r = stub.received().get(0);
        assertTrue(r.path().endsWith("/messages"), r.path());
        assertEquals(KEY, r.header("x-api-key"));
        assertEquals("2023-06-01", r.header("anthropic-version"));
        assertEquals(null, r.header("authorization"), "the key goes in one header only");
    }

    @Test
    void aGeminiStreamIsPostedToItsModelsPathWithXGoogApiKeyAndRecordedChunkByChunk() throws Exception {
        String answer = "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":"
                + "\"Fix the null check first.\"}]},\"finishReason\":\"STOP\",\"index\":0}],"
                + "\"usageMetadata\":{\"totalTokenCount\":9},\"modelVersion\":\"gemini-2.5-flash\"}";
        List<dev.resilienceharness.cassette.StreamEvent> sent = dev.resilienceharness.http.GeminiStreams.of(
                Json.readTree(answer), 25);
        stub.then(new ProviderStub.Named(sent));
        ObjectNode request = (ObjectNode) Json.readTree("{\"model\":\"gemini-2.5-flash\",\"stream\":true,"
                + "\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"fix\"}]}]}");
        dev.resilienceharness.cassette.CassetteStore.Recorded recorded = live.send("plan", request,
                dev.resilienceharness.http.ApiShape.GEMINI);
        ProviderStub.Received r = stub.received().get(0);
        assertTrue(r.path().endsWith("/models/gemini-2.5-flash:streamGenerateContent"), r.path());
        assertEquals(KEY, r.header("x-goog-api-key"));
        assertEquals(null, r.header("authorization"), "the key goes in one header only");
        assertEquals("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"fix\"}]}]}", r.body(),
                "Gemini is sent the body without the model and stream its path carries");
        assertEquals(Json.readTree(answer), recorded.response());
        assertEquals(sent.size(), recorded.stream().events().size());
    }

    @Test
    void aMessagesStreamIsRecordedWithItsNamedEventsAndTheMessageTheyAddUpTo() throws Exception {
        String message = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"c\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"Fix the null check.\"}],\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":9,\"output_tokens\":5}}";
        List<dev.resilienceharness.cassette.StreamEvent> sent = dev.resilienceharness.http.MessageStreams.of(
                Json.readTree(message), 25);
        stub.then(new ProviderStub.Named(sent));
        ObjectNode request = (ObjectNode) Json.readTree("{\"model\":\"c\",\"max_tokens\":5,\"stream\":true,"
                + "\"messages\":[]}");
        dev.resilienceharness.cassette.CassetteStore.Recorded recorded = live.send("plan", request,
                dev.resilienceharness.http.ApiShape.MESSAGES);
        ProviderStub.Received r = stub.received().get(0);
        assertEquals(KEY, r.header("x-api-key"));
        assertEquals("text/event-stream", r.header("accept"));
        assertEquals("Fix the null check.", recorded.response().at("/content/0/text").asString());
        assertEquals("end_turn", recorded.response().path("stop_reason").asString());
        assertEquals(sent.stream().map(dev.resilienceharness.cassette.StreamEvent::event).toList(),
                recorded.stream().events().stream().map(dev.resilienceharness.cassette.StreamEvent::event).toList());
    }

    @Test
    void aMissingKeyIsReportedBeforeAnythingIsSent() {
        MissingApiKey e = assertThrows(MissingApiKey.class,
                () -> LiveTransport.connect(new Provider(stub.baseUrl(), "PROVIDER_API_KEY"), name -> null));
        assertTrue(e.getMessage().startsWith("set PROVIDER_API_KEY "), e.getMessage());
        assertEquals("PROVIDER_API_KEY", e.variable());
        assertThrows(MissingApiKey.class,
                () -> LiveTransport.connect(new Provider(stub.baseUrl(), "PROVIDER_API_KEY"), name -> "  "));
        MissingApiKey forSdk = assertThrows(MissingApiKey.class, () -> LiveTransport.forwarder(
                new Provider(stub.baseUrl(), "PROVIDER_API_KEY"), name -> null, java.time.Duration.ofSeconds(5)));
        assertEquals(e.getMessage(), forSdk.getMessage(), "recording through a loop's SDK says the same");
        assertEquals(List.of(), stub.received());
    }

    @Test
    void aProviderWithoutKeyVariableIsCalledWithoutAuthorization() throws Exception {
        LiveTransport open = LiveTransport.connect(new Provider(stub.baseUrl(), null), name -> {
            throw new AssertionError("no variable to read");
        });
        open.send("plan", request("x"));
        assertNull(stub.received().get(0).header("authorization"));
    }

    @Test
    void quotaWithoutRetryAfter() {
        stub.then(ProviderStub.quota());
        QuotaExhausted q = assertThrows(QuotaExhausted.class, () -> live.send("plan", request("x")));
        assertNull(q.retryAfter());
        assertTrue(q.delay(Instant.EPOCH).isEmpty());
    }

    @Test
    void quotaWithRetryAfterSeconds() {
        stub.then(ProviderStub.quota("2"));
        QuotaExhausted q = assertThrows(QuotaExhausted.class, () -> live.send("plan", request("x")));
        assertEquals("2", q.retryAfter());
        assertEquals(Duration.ofSeconds(2), q.delay(Instant.EPOCH).orElseThrow());
    }

    @Test
    void quotaWithRetryAfterHttpDate() {
        stub.then(ProviderStub.quota("Thu, 01 Jan 2026 00:00:05 GMT"));
        QuotaExhausted q = assertThrows(QuotaExhausted.class, () -> live.send("plan", request("x")));
        assertEquals(Duration.ofSeconds(5), q.delay(Instant.parse("2026-01-01T00:00:00Z")).orElseThrow());
    }

    @Test
    void retryAfterMsWinsOverRetryAfter() {
        stub.then(ProviderStub.quota("30", "1500"));
        QuotaExhausted q = assertThrows(QuotaExhausted.class, () -> live.send("plan", request("x")));
        assertEquals("30", q.retryAfter(), "the header text is kept for the outcome record");
        assertEquals(Duration.ofMillis(1500), q.delay(Instant.EPOCH).orElseThrow());
    }

    @Test
    void aBadRetryAfterMsFallsBackToRetryAfter() {
        assertNull(LiveTransport.retryAfterMs("soon"));
        assertNull(LiveTransport.retryAfterMs("-5"));
        assertEquals(Duration.ofNanos(1_500_000), LiveTransport.retryAfterMs("1.5"));
        stub.then(ProviderStub.quota("3", "soon"));
        QuotaExhausted q = assertThrows(QuotaExhausted.class, () -> live.send("plan", request("x")));
        assertEquals(Duration.ofSeconds(3), q.delay(Instant.EPOCH).orElseThrow());
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 409, 500, 502, 503, 504, 599})
    void retryableStatusesAreTransient(int status) {
        stub.then(ProviderStub.status(status));
        TransientError t = assertThrows(TransientError.class, () -> live.send("plan", request("x")));
        assertEquals(status, t.status());
        assertFalse(t.isTimeout());
    }

    @Test
    void aSlowProviderTimesOut() throws Exception {
        LiveTransport impatient = LiveTransport.connect(new Provider(stub.baseUrl(), "PROVIDER_API_KEY"), ENV::get,
                Duration.ofSeconds(2), Duration.ofMillis(200));
        stub.then(ProviderStub.slow(1500, ProviderStub.ok(ProviderStub.completion("late"))));
        TransientError t = assertThrows(TransientError.class, () -> impatient.send("plan", request("x")));
        assertTrue(t.isTimeout());
    }

    @Test
    void aDroppedConnectionIsTransient() {
        stub.then(new ProviderStub.Drop());
        TransientError t = assertThrows(TransientError.class, () -> live.send("plan", request("x")));
        assertTrue(t.isTimeout());
    }

    @Test
    void aRefusedConnectionNamesTheEndpoint() throws Exception {
        int free;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            free = s.getLocalPort();
        }
        LiveTransport nowhere = LiveTransport.connect(new Provider(URI.create("http://127.0.0.1:" + free + "/v1"),
                "PROVIDER_API_KEY"), ENV::get, Duration.ofSeconds(2), Duration.ofSeconds(2));
        IOException e = assertThrows(IOException.class, () -> nowhere.send("plan", request("x")));
        assertTrue(e.getMessage().contains("cannot connect to http://127.0.0.1:" + free + "/v1/chat/completions"),
                e.getMessage());
        assertFalse(e.getMessage().contains("(null)"), "the cause is named: " + e.getMessage());
        assertTrue(e.getMessage().contains("(connection refused"), e.getMessage());
        assertThrows(TransientError.class, () -> nowhere.call(request("x")), "a loop sees it as transient");
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 422})
    void otherStatusesAreUnexpectedAndNameOpStatusAndBody(int status) {
        stub.then(ProviderStub.withHeaders(new ProviderStub.Reply(status,
                "{\"error\": {\"message\": \"model   m does not exist\"}}", Map.of(), 0),
                Map.of("x-request-id", "req-secret-header")));
        UnexpectedStatus e = assertThrows(UnexpectedStatus.class, () -> live.send("plan", request("x")));
        assertEquals("plan", e.op());
        assertEquals(status, e.status());
        assertTrue(e.getMessage().startsWith("op 'plan': the provider answered HTTP " + status), e.getMessage());
        assertTrue(e.getMessage().contains("{\"error\": {\"message\": \"model m does not exist\"}}"), e.getMessage());
        assertFalse(e.getMessage().contains("req-secret-header"), "never a header");
        assertFalse(e.getMessage().contains(KEY));
    }

    @Test
    void aBodyEchoingTheKeyIsMaskedInTheMessage() {
        stub.then(new ProviderStub.Reply(401, "{\"error\":\"Incorrect API key provided: " + KEY + "\"}", Map.of(),
                0));
        UnexpectedStatus e = assertThrows(UnexpectedStatus.class, () -> live.send("plan", request("x")));
        assertFalse(e.getMessage().contains(KEY), e.getMessage());
        assertTrue(e.getMessage().contains("Incorrect API key provided: ****"), e.getMessage());
    }

    @Test
    void a200ThatIsNotJsonIsUnexpected() {
        stub.then(ProviderStub.ok("<html>gateway</html>"));
        UnexpectedStatus e = assertThrows(UnexpectedStatus.class, () -> live.send("plan", request("x")));
        assertEquals(200, e.status());
        assertTrue(e.getMessage().contains("its body is not JSON: <html>gateway</html>"), e.getMessage());
    }

    @Test
    void aToolCallBreakingItsSchemaIsASchemaFailureForALoopButIsStillRecordable() throws Exception {
        ObjectNode req = request("patch");
        req.putArray("tools").addObject().put("type", "function").putObject("function").put("name", "edit")
                .set("parameters", Json.readTree("{\"type\":\"object\",\"required\":[\"path\"],"
                        + "\"properties\":{\"path\":{\"type\":\"string\"}}}"));
        stub.then(ProviderStub.ok(ProviderStub.toolCall("edit", "{\"path\": ")));
        BadToolCall bad = assertThrows(BadToolCall.class, () -> live.call(req));
        assertTrue(bad.getMessage().contains("does not parse"), bad.getMessage());
        stub.then(ProviderStub.ok(ProviderStub.toolCall("edit", "{\"file\": \"a\"}")));
        assertThrows(BadToolCall.class, () -> live.call(req), "parses, but breaks the schema");
        stub.then(ProviderStub.ok(ProviderStub.toolCall("edit", "{\"path\": \"a\"}")));
        Reply ok = live.call(req);
        assertEquals("edit", ok.body().at("/choices/0/message/tool_calls/0/function/name").asString());
        stub.then(ProviderStub.ok(ProviderStub.toolCall("edit", "{\"path\": ")));
        Recorded raw = live.send("patch", req);
        assertEquals("{\"path\": ", raw.response().at("/choices/0/message/tool_calls/0/function/arguments")
                .asString(), "send returns what the provider said, for the cassette");
    }

    @Test
    void aStreamIsAssembledAndItsFirstTokenTimed() throws Exception {
        ObjectNode req = request("stream it");
        req.put("stream", true);
        ProviderStub.Events events = ProviderStub.stream(300, List.of(
                "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":5,\"model\":\"m\","
                        + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
                        + "\"finish_reason\":null}]}",
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}",
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":null}]}",
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}"));
        stub.then(events, events);
        Recorded r = live.send("plan", req);
        assertEquals("text/event-stream", stub.received().get(0).header("accept"));
        assertEquals("Hello", r.response().at("/choices/0/message/content").asString());
        assertEquals("stop", r.response().at("/choices/0/finish_reason").asString());
        assertEquals("chat.completion", r.response().get("object").asString());
        assertTrue(r.timing().firstTokenMs() >= 300, "first token " + r.timing().firstTokenMs());
        assertTrue(r.timing().totalMs() >= r.timing().firstTokenMs());
        Reply reply = live.call(req.deepCopy());
        assertTrue(reply.firstTokenMs().isPresent(), "a loop sees the first-token latency too");
    }

    @Test
    void aResponsesStreamIsRecordedWithItsNamedEventsAndTheResponseItEndsWith() throws Exception {
        String response = dev.resilienceharness.http.ResponseStreamsTest.RESPONSE;
        List<dev.resilienceharness.cassette.StreamEvent> sent = new java.util.ArrayList<>();
        List<dev.resilienceharness.cassette.StreamEvent> whole = dev.resilienceharness.http.ResponseStreams.of(
                Json.readTree(response), 0);
        for (int i = 0; i < whole.size(); i++) {
            sent.add(whole.get(i).later(30 + 5L * i));
        }
        stub.then(new ProviderStub.Named(sent));
        ObjectNode req = (ObjectNode) Json.readTree("{\"model\":\"gpt-4.1-mini\",\"stream\":true,\"input\":\"plan\"}");
        dev.resilienceharness.cassette.CassetteStore.Recorded recorded = live.send("plan", req,
                dev.resilienceharness.http.ApiShape.RESPONSES);
        assertTrue(stub.received().get(0).path().endsWith("/responses"));
        assertEquals("text/event-stream", stub.received().get(0).header("accept"));
        assertEquals(Json.readTree(response), recorded.response(), "response.completed's response");
        assertEquals(whole.stream().map(dev.resilienceharness.cassette.StreamEvent::event).toList(),
                recorded.stream().events().stream().map(dev.resilienceharness.cassette.StreamEvent::event).toList());
        assertTrue(recorded.timing().firstTokenMs() >= 50, "the first text delta, sent at 50 ms: "
                + recorded.timing());
    }

    @Test
    void aStreamCutOffBeforeItsEndIsTransient() {
        ObjectNode req = request("stream it");
        req.put("stream", true);
        stub.then(new ProviderStub.Events(List.of(
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}"),
                0, false));
        assertThrows(TransientError.class, () -> live.send("plan", req));
    }

    @Test
    void anErrorInsideAStreamIsUnexpected() {
        ObjectNode req = request("stream it");
        req.put("stream", true);
        stub.then(ProviderStub.stream(0, List.of("{\"error\":{\"message\":\"overloaded mid-stream\"}}")));
        UnexpectedStatus e = assertThrows(UnexpectedStatus.class, () -> live.send("plan", req));
        assertTrue(e.getMessage().contains("overloaded mid-stream"), e.getMessage());
    }

    @Test
    void anUnexpectedStatusIsAnIllegalStateForALoop() {
        stub.then(ProviderStub.status(400));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> live.call(request("x")));
        assertInstanceOf(UnexpectedStatus.class, e.getCause());
    }

    private static java.net.http.HttpHeaders headers(java.util.Map<String, java.util.List<String>> map) {
        return java.net.http.HttpHeaders.of(map, (k, v) -> true);
    }

    @Test
    void aLive429SaysWhichKindItIsByItsErrorCodeAndWindowHeaders() {
        String rate = "{\"error\":{\"code\":\"rate_limit_exceeded\",\"message\":\"slow down\"}}";
        assertEquals(dev.resilienceharness.transport.QuotaExhausted.Kind.RATE_LIMIT, LiveTransport.quotaKind(
                headers(java.util.Map.of("x-ratelimit-remaining-requests", java.util.List.of("0"))), rate));
        // The same code without window headers is what a scripted quota fault sends: of unknown kind.
        assertEquals(dev.resilienceharness.transport.QuotaExhausted.Kind.QUOTA,
                LiveTransport.quotaKind(headers(java.util.Map.of()), rate));
        assertEquals(dev.resilienceharness.transport.QuotaExhausted.Kind.INSUFFICIENT_QUOTA, LiveTransport.quotaKind(
                headers(java.util.Map.of()), "{\"error\":{\"code\":\"insufficient_quota\"}}"));
        assertEquals(dev.resilienceharness.transport.QuotaExhausted.Kind.QUOTA,
                LiveTransport.quotaKind(headers(java.util.Map.of()), "not json"));
    }

    private static final String NOVA = "{\"modelId\":\"amazon.nova-lite-v1:0\",\"messages\":[{\"role\":\"user\","
            + "\"content\":[{\"text\":\"plan\"}]}]}";
    private static final String CONVERSE = "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":"
            + "\"done\"}]}},\"stopReason\":\"end_turn\"}";
    private static final Map<String, String> AWS = Map.of("AWS_ACCESS_KEY_ID", "AKIDRECORDINGEXAMPLE",
            "AWS_SECRET_ACCESS_KEY", "secret-recording-example-key", "AWS_SESSION_TOKEN", "session-token-example",
            "AWS_REGION", "eu-west-1");

    @Test
    void aBedrockRequestWithNeitherAKeyNorAwsCredentialsIsNotSent() throws Exception {
        ObjectNode request = (ObjectNode) Json.readTree("{\"modelId\":\"amazon.nova-lite-v1:0\",\"messages\":[]}");
        LiveTransport unsigned = LiveTransport.connect(new Provider(stub.baseUrl(), null),
                Map.<String, String>of()::get);
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> unsigned.send("plan", request, dev.resilienceharness.http.ApiShape.BEDROCK));
        assertEquals(LiveMessages.BEDROCK_NO_CREDENTIALS, e.getMessage());
        assertTrue(stub.received().isEmpty(), "nothing reached the provider");
    }

    @Test
    void aBedrockApiKeyIsSentAsABearerTokenToTheModelsConversePath() throws Exception {
        stub.then(ProviderStub.ok(CONVERSE));
        Recorded r = live.send("plan", (ObjectNode) Json.readTree(NOVA), dev.resilienceharness.http.ApiShape.BEDROCK);
        assertEquals("done", r.response().path("output").path("message").path("content").get(0).path("text")
                .asString());
        ProviderStub.Received got = stub.received().get(0);
        assertEquals("/v1/model/amazon.nova-lite-v1:0/converse", got.path());
        assertEquals("Bearer " + KEY, got.header("authorization"));
        assertNull(got.header("x-amz-date"), "a Bearer key is no signature");
        assertFalse(got.body().contains("modelId"), "the model id goes in the path only: " + got.body());
    }

    @Test
    void withoutAKeyTheEnvironmentsAwsCredentialsSignTheRequestWithSigV4() throws Exception {
        stub.then(ProviderStub.ok(CONVERSE));
        LiveTransport signed = LiveTransport.connect(new Provider(stub.baseUrl(), null), AWS::get);
        signed.send("plan", (ObjectNode) Json.readTree(NOVA), dev.resilienceharness.http.ApiShape.BEDROCK);
        ProviderStub.Received got = stub.received().get(0);
        String date = got.header("x-amz-date");
        assertTrue(got.header("authorization").startsWith("AWS4-HMAC-SHA256 Credential=AKIDRECORDINGEXAMPLE/"
                + date.substring(0, 8) + "/eu-west-1/bedrock/aws4_request, SignedHeaders=host;"
                + "x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature="), got.header("authorization"));
        assertEquals("session-token-example", got.header("x-amz-security-token"));
        Instant at = java.time.LocalDateTime.parse(date, java.time.format.DateTimeFormatter.ofPattern(
                "yyyyMMdd'T'HHmmss'Z'")).toInstant(java.time.ZoneOffset.UTC);
        URI sentTo = URI.create(stub.baseUrl() + "/model/amazon.nova-lite-v1%3A0/converse");
        assertEquals(dev.resilienceharness.http.AwsSigV4.of(new dev.resilienceharness.http.AwsSigV4.Credentials(
                "AKIDRECORDINGEXAMPLE", "secret-recording-example-key", "session-token-example"), "eu-west-1",
                "bedrock").sign("POST", sentTo, Map.of(), got.body().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                at, true).get("Authorization"), got.header("authorization"),
                "the signature covers the host, path and body sent");
        got.headers().values().forEach(v -> assertFalse(v.toString().contains("secret-recording-example-key"), v
                .toString()));
    }

    @Test
    void awsCredentialsWithoutARegionSendNothing() throws Exception {
        Map<String, String> noRegion = new java.util.HashMap<>(AWS);
        noRegion.remove("AWS_REGION");
        LiveTransport signed = LiveTransport.connect(new Provider(stub.baseUrl(), null), noRegion::get);
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> signed.send("plan",
                (ObjectNode) Json.readTree(NOVA), dev.resilienceharness.http.ApiShape.BEDROCK));
        assertEquals(LiveMessages.BEDROCK_NO_REGION, e.getMessage());
        assertTrue(stub.received().isEmpty());
    }

    @Test
    void theForwarderRefusesABedrockAttemptWithNeitherCredentialAndForwardsTheOthers() throws Exception {
        dev.resilienceharness.http.HttpForwarder forwarder = LiveTransport.forwarder(new Provider(stub.baseUrl(),
                null), Map.<String, String>of()::get, Duration.ofSeconds(2));
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> forwarder.send(
                new dev.resilienceharness.http.HttpAttempt("aws-sdk-bedrockruntime 2.59.1", "POST",
                        "model/amazon.nova-lite-v1%3A0/converse", Map.of(), NOVA.getBytes(
                        java.nio.charset.StandardCharsets.UTF_8), null, 0)));
        assertEquals(LiveMessages.BEDROCK_NO_CREDENTIALS, e.getMessage());
        assertTrue(stub.received().isEmpty());
        stub.then(ProviderStub.ok("{}"));
        assertEquals(200, forwarder.send(new dev.resilienceharness.http.HttpAttempt("openai-java", "POST",
                "chat/completions", Map.of(), "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8), null, 0))
                .status(), "a provider that takes no key is still forwarded to");
    }

    @Test
    void theForwarderSignsABedrockAttemptWithTheEnvironmentsAwsCredentials() throws Exception {
        stub.then(ProviderStub.ok(CONVERSE));
        dev.resilienceharness.http.HttpForwarder forwarder = LiveTransport.forwarder(new Provider(stub.baseUrl(),
                null), AWS::get, Duration.ofSeconds(2));
        forwarder.send(new dev.resilienceharness.http.HttpAttempt("aws-sdk-bedrockruntime 2.59.1", "POST",
                "model/amazon.nova-lite-v1%3A0/converse", Map.of("Authorization", List.of("AWS4-HMAC-SHA256 "
                        + "Credential=harness-replay/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host,"
                        + " Signature=00"), "X-Amz-Date", List.of("20260101T000000Z")),
                "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8), null, 0));
        ProviderStub.Received got = stub.received().get(0);
        assertTrue(got.header("authorization").startsWith("AWS4-HMAC-SHA256 Credential=AKIDRECORDINGEXAMPLE/"),
                got.header("authorization"));
        assertFalse(got.header("x-amz-date").equals("20260101T000000Z"), "the placeholder signature's date is gone");
        assertEquals(1, got.headers().get("authorization").size());
    }
}
