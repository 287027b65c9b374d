package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.BedrockChunks;
import dev.resilienceharness.http.BedrockStreams;
import dev.resilienceharness.http.EventStreamFrames;
import dev.resilienceharness.http.StreamRecording;
import dev.resilienceharness.http.StreamReplay;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.LiveMessages;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.ProviderStub;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * Drift of the clouds' cassettes: Bedrock Converse, signed with a Bedrock API key or SigV4, and Anthropic's Messages
 * API recorded through anthropic-java's Bedrock and Vertex AI backends, each re-sent to its cloud's own path.
 */
class DriftCheckCloudTest {

    static final String KEY = "bedrock-api-key-LoopbackOnly0123456789";
    static final Map<String, String> AWS = Map.of("AWS_ACCESS_KEY_ID", "AKIDDRIFTEXAMPLE",
            "AWS_SECRET_ACCESS_KEY", "drift-secret-never-sent", "AWS_REGION", "us-east-2");

    /** A SigV4 Authorization header's form; its values are checked in AwsSigV4Test. */
    static final Pattern SIGV4 = Pattern.compile("AWS4-HMAC-SHA256 Credential=AKIDDRIFTEXAMPLE/\\d{8}/us-east-2/"
            + "bedrock/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}");

    static final String CONVERSE = "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":"
            + "\"%s\"}]}},\"stopReason\":\"end_turn\"}";

    static final String MESSAGE = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"%s\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"%s\"}],\"stop_reason\":\"end_turn\","
            + "\"usage\":{\"input_tokens\":9,\"output_tokens\":2}}";

    static final String BEDROCK_CLAUDE = "anthropic.claude-sonnet-4-5-20250929-v1:0";
    static final String VERTEX_CLAUDE = "claude-sonnet-4-5@20250929";

    @TempDir
    Path dir;

    private ProviderStub stub;

    @BeforeEach
    void start() throws Exception {
        stub = ProviderStub.start();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    /** {@code body} with a field the cassette does not have: the drift a check must report. */
    private static String added(String body) {
        return body.substring(0, body.length() - 1) + ",\"service_note\":\"new\"}";
    }

    /** The stub answers {@code body} to a request whose Authorization is well-formed, else Bedrock's 403. */
    private void answer(String body, Predicate<String> authorization) {
        stub.otherwise(r -> r.header("authorization") != null && authorization.test(r.header("authorization"))
                ? ProviderStub.ok(body) : ProviderStub.status(403));
    }

    private HarnessConfig config(String request, String apiKeyEnv) throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                policy: {max_attempts: 3, max_total_wait: 30s}
                requests:
                  plan: %s
                scenarios:
                  - {name: happy, ops: [plan], faults: []}
                provider:
                  base_url: %s
                %s""".formatted(request, stub.baseUrl(), apiKeyEnv == null ? "" : "  api_key_env: " + apiKeyEnv + "\n"),
                StandardCharsets.UTF_8);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    /** Writes the op's cassette as a recording would have, answering {@code response}. */
    private static void recorded(HarnessConfig config, String response) throws Exception {
        new CassetteStore(config.cassettes(), VolatilePaths.of(config.volatilePaths()), Mode.RECORD,
                RecordingRedaction.forConfig(config)).write(config.request("plan"), Json.readTree(response), null,
                "plan");
    }

    private static DriftResult drift(HarnessConfig config, Map<String, String> env) throws Exception {
        return new DriftCheck(config, LiveTransport.connect(config.provider(), env::get),
                RecordingRedaction.forConfig(config)).run(DriftOptions.all());
    }

    private static String converseRequest() {
        return "{modelId: \"amazon.nova-lite-v1:0\", messages: [{role: user, content: [{text: plan the fix}]}]}";
    }

    @Test
    void aConverseCassetteDriftsAgainstBedrockWithABedrockApiKeyAsABearerToken() throws Exception {
        HarnessConfig config = config(converseRequest(), "AWS_BEARER_TOKEN_BEDROCK");
        recorded(config, CONVERSE.formatted("done"));
        answer(added(CONVERSE.formatted("done")), ("Bearer " + KEY)::equals);

        DriftResult result = drift(config, Map.of("AWS_BEARER_TOKEN_BEDROCK", KEY));

        assertEquals(1, result.drifted().size(), result.entries().toString());
        assertEquals(List.of(ChangeKind.ADDED), result.drifted().get(0).changes().stream().map(Change::kind).toList());
        ProviderStub.Received got = stub.received().get(0);
        assertEquals("/v1/model/amazon.nova-lite-v1:0/converse", got.path());
        assertFalse(got.body().contains("modelId"), "the model id goes in the path only: " + got.body());
        assertNull(got.header("x-api-key"));
    }

    @Test
    void aConverseCassetteDriftsAgainstBedrockSignedWithSigV4() throws Exception {
        HarnessConfig config = config(converseRequest(), null);
        recorded(config, CONVERSE.formatted("done"));
        answer(CONVERSE.formatted("done"), a -> SIGV4.matcher(a).matches());

        DriftResult result = drift(config, AWS);

        assertEquals(DriftResult.Status.UNCHANGED, result.entries().get(0).status(), result.entries().toString());
        ProviderStub.Received got = stub.received().get(0);
        assertEquals("/v1/model/amazon.nova-lite-v1:0/converse", got.path());
        assertTrue(got.header("x-amz-date").matches("\\d{8}T\\d{6}Z"), got.header("x-amz-date"));
        assertTrue(got.header("x-amz-content-sha256").matches("[0-9a-f]{64}"), got.header("x-amz-content-sha256"));
    }

    @Test
    void withNeitherAKeyNorAwsCredentialsAConverseCassetteFailsNamingBothWaysAndNothingIsSent() throws Exception {
        HarnessConfig config = config(converseRequest(), null);
        recorded(config, CONVERSE.formatted("done"));

        DriftResult result = drift(config, Map.of());

        assertEquals(DriftResult.Status.FAILED, result.entries().get(0).status());
        assertEquals(LiveMessages.BEDROCK_NO_CREDENTIALS, result.entries().get(0).detail());
        assertTrue(stub.received().isEmpty());
    }

    private static String bedrockClaudeRequest(String extra) {
        return "{model: \"" + BEDROCK_CLAUDE + "\", anthropic_version: bedrock-2023-05-31, max_tokens: 64,"
                + " messages: [{role: user, content: plan the fix}]" + extra + "}";
    }

    @Test
    void aCassetteRecordedThroughTheBedrockBackendIsResentToItsModelsInvokePath() throws Exception {
        HarnessConfig config = config(bedrockClaudeRequest(""), null);
        recorded(config, MESSAGE.formatted(BEDROCK_CLAUDE, "done"));
        answer(added(MESSAGE.formatted(BEDROCK_CLAUDE, "done")), a -> SIGV4.matcher(a).matches());

        DriftResult result = drift(config, AWS);

        assertEquals(1, result.drifted().size(), result.entries().toString());
        ProviderStub.Received got = stub.received().get(0);
        assertEquals("/v1/model/" + BEDROCK_CLAUDE + "/invoke", got.path());
        ObjectNode body = got.json();
        assertFalse(body.has("model"), "the model is in the path: " + body);
        assertEquals("bedrock-2023-05-31", body.path("anthropic_version").asString(),
                "the body as the backend sends it");
        assertNull(got.header("x-api-key"), "Bedrock takes no Anthropic key");
        assertNull(got.header("anthropic-version"), "the version is in the body");
    }

    @Test
    void aBedrockBackendCassetteTakesABedrockApiKeyAsABearerToken() throws Exception {
        HarnessConfig config = config(bedrockClaudeRequest(""), "AWS_BEARER_TOKEN_BEDROCK");
        recorded(config, MESSAGE.formatted(BEDROCK_CLAUDE, "done"));
        answer(MESSAGE.formatted(BEDROCK_CLAUDE, "done"), ("Bearer " + KEY)::equals);

        DriftResult result = drift(config, Map.of("AWS_BEARER_TOKEN_BEDROCK", KEY));

        assertEquals(DriftResult.Status.UNCHANGED, result.entries().get(0).status(), result.entries().toString());
        assertEquals("/v1/model/" + BEDROCK_CLAUDE + "/invoke", stub.received().get(0).path());
    }

    @Test
    void aStreamedBedrockBackendCassetteIsResentToItsStreamPathAndItsChunkFramesAreRead() throws Exception {
        HarnessConfig config = config(bedrockClaudeRequest(", stream: true"), "AWS_BEARER_TOKEN_BEDROCK");
        List<StreamEvent> events = StreamReplay.synthesized(ApiShape.MESSAGES,
                Json.readTree(MESSAGE.formatted(BEDROCK_CLAUDE, "done")), config.request("plan"), 0);
        recorded(config, StreamRecording.assemble(events, ApiShape.MESSAGES).completion().toString());
        stub.then(new ProviderStub.Binary(BedrockChunks.frames(events), EventStreamFrames.CONTENT_TYPE,
                BedrockChunks.headers()));

        DriftResult result = drift(config, Map.of("AWS_BEARER_TOKEN_BEDROCK", KEY));

        assertEquals(DriftResult.Status.UNCHANGED, result.entries().get(0).status(), result.entries().toString());
        ProviderStub.Received got = stub.received().get(0);
        assertEquals("/v1/model/" + BEDROCK_CLAUDE + "/invoke-with-response-stream", got.path());
        assertEquals(EventStreamFrames.CONTENT_TYPE, got.header("accept"));
        assertEquals("Bearer " + KEY, got.header("authorization"));
    }

    @Test
    void aConverseStreamCassetteIsResentToConverseStreamAndItsFramesAreRead() throws Exception {
        HarnessConfig config = config("{modelId: \"amazon.nova-lite-v1:0\", stream: true, messages: [{role: user,"
                + " content: [{text: plan the fix}]}]}", "AWS_BEARER_TOKEN_BEDROCK");
        List<StreamEvent> events = BedrockStreams.of(Json.readTree(CONVERSE.formatted("done")), 0);
        recorded(config, StreamRecording.assemble(events, ApiShape.BEDROCK).completion().toString());
        stub.then(new ProviderStub.Binary(BedrockStreams.frames(events), EventStreamFrames.CONTENT_TYPE, Map.of()));

        DriftResult result = drift(config, Map.of("AWS_BEARER_TOKEN_BEDROCK", KEY));

        assertEquals(DriftResult.Status.UNCHANGED, result.entries().get(0).status(), result.entries().toString());
        ProviderStub.Received got = stub.received().get(0);
        assertEquals("/v1/model/amazon.nova-lite-v1:0/converse-stream", got.path());
        assertFalse(got.body().contains("stream"), "the path says it streams: " + got.body());
    }

    private static String vertexRequest() {
        return "{model: \"" + VERTEX_CLAUDE + "\", anthropic_version: vertex-2023-10-16, max_tokens: 64,"
                + " messages: [{role: user, content: plan the fix}]}";
    }

    @Test
    void aCassetteRecordedThroughTheVertexBackendIsResentToItsRawPredictPath() throws Exception {
        HarnessConfig config = config(vertexRequest(), "GOOGLE_ACCESS_TOKEN");
        recorded(config, MESSAGE.formatted(VERTEX_CLAUDE, "done"));
        answer(added(MESSAGE.formatted(VERTEX_CLAUDE, "done")), ("Bearer " + KEY)::equals);

        DriftResult result = drift(config, Map.of("GOOGLE_ACCESS_TOKEN", KEY, "ANTHROPIC_VERTEX_PROJECT_ID",
                "my-project", "CLOUD_ML_REGION", "us-east5"));

        assertEquals(1, result.drifted().size(), result.entries().toString());
        ProviderStub.Received got = stub.received().get(0);
        assertEquals("/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/" + VERTEX_CLAUDE
                + ":rawPredict", got.path());
        ObjectNode body = got.json();
        assertFalse(body.has("model"), "the model is in the path: " + body);
        assertEquals("vertex-2023-10-16", body.path("anthropic_version").asString());
        assertNull(got.header("x-api-key"), "Vertex AI takes a Google access token, not an Anthropic key");
    }

    @Test
    void withoutAProjectAVertexBackendCassetteIsNotSentAndSaysWhatToSet() throws Exception {
        HarnessConfig config = config(vertexRequest(), "GOOGLE_ACCESS_TOKEN");
        recorded(config, MESSAGE.formatted(VERTEX_CLAUDE, "done"));

        DriftResult result = drift(config, Map.of("GOOGLE_ACCESS_TOKEN", KEY, "CLOUD_ML_REGION", "us-east5"));

        assertEquals(DriftResult.Status.FAILED, result.entries().get(0).status());
        assertEquals(LiveMessages.VERTEX_NO_PROJECT, result.entries().get(0).detail());
        assertTrue(stub.received().isEmpty());
    }

    @Test
    void anAnthropicApiCassetteStillGoesToMessagesWithXApiKey() throws Exception {
        HarnessConfig config = config("{model: claude-sonnet-4-5, max_tokens: 64, messages: [{role: user, content:"
                + " plan the fix}]}", "ANTHROPIC_API_KEY");
        recorded(config, MESSAGE.formatted("claude-sonnet-4-5", "done"));
        stub.otherwise(r -> KEY.equals(r.header("x-api-key")) ? ProviderStub.ok(MESSAGE.formatted(
                "claude-sonnet-4-5", "done")) : ProviderStub.status(401));

        DriftResult result = drift(config, Map.of("ANTHROPIC_API_KEY", KEY));

        assertEquals(DriftResult.Status.UNCHANGED, result.entries().get(0).status(), result.entries().toString());
        assertEquals(List.of("/v1/messages"), stub.received().stream().map(ProviderStub.Received::path).toList());
    }
}
