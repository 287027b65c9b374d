package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Provider;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.LiveMessages;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.ProviderStub;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code serve} in record-missing mode forwarding Bedrock Converse (with a Bedrock API key, SigV4, or neither), and a
 * request from anthropic-java's Bedrock backend to its invoke path.
 */
class ServeRecordBedrockTest {

    static final String PATH = "/model/amazon.nova-lite-v1%3A0/converse";
    static final String KEY = "bedrock-api-key-ServeLoopbackOnly0123";
    static final Map<String, String> AWS = Map.of("AWS_ACCESS_KEY_ID", "AKIDSERVEEXAMPLE",
            "AWS_SECRET_ACCESS_KEY", "serve-secret-never-sent", "AWS_REGION", "us-west-2");
    static final Pattern SIGV4 = Pattern.compile("AWS4-HMAC-SHA256 Credential=AKIDSERVEEXAMPLE/\\d{8}/us-west-2/"
            + "bedrock/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}");

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private HarnessConfig config() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                policy: {max_total_wait: 30s}
                scenarios:
                  - {name: plain, ops: [plan]}
                """);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    private HttpResponse<String> post(ReplayProxy proxy) throws Exception {
        return post(proxy, PATH, ReplayProxyTest.BEDROCK_BODY);
    }

    private HttpResponse<String> post(ReplayProxy proxy, String path, String body) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + proxy.port() + path);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=placeholder")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static boolean noCassette(HarnessConfig config) throws Exception {
        return !Files.exists(config.cassettes())
                || CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths())).files()
                        .isEmpty();
    }

    @Test
    void aBedrockApiKeyRecordsTheConverseRequestAtItsModelsPath() throws Exception {
        HarnessConfig config = config();
        try (ProviderStub stub = ProviderStub.start()) {
            stub.otherwise(r -> ("Bearer " + KEY).equals(r.header("authorization"))
                    ? ProviderStub.ok(ReplayProxyTest.BEDROCK_ANSWER) : ProviderStub.status(403));
            LiveTransport live = LiveTransport.connect(new Provider(stub.baseUrl(), "AWS_BEARER_TOKEN_BEDROCK"),
                    Map.of("AWS_BEARER_TOKEN_BEDROCK", KEY)::get);
            try (ReplayProxy proxy = ReplayProxy.builder(config).mode(Mode.RECORD_MISSING).upstream(live).build()
                    .start()) {
                HttpResponse<String> r = post(proxy);
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("edit", Json.readTree(r.body()).at("/output/message/content/0/toolUse/name").asString());
            }
            assertEquals("/v1/model/amazon.nova-lite-v1:0/converse", stub.received().get(0).path());
            assertFalse(stub.received().get(0).body().contains("modelId"));
        }
        assertFalse(noCassette(config));
        String written = Files.readString(CassetteStore.replaying(config.cassettes(),
                VolatilePaths.of(config.volatilePaths())).files().get(0));
        assertFalse(written.contains(KEY), "the key is never written");
    }

    @Test
    void awsCredentialsSignTheForwardedRequest() throws Exception {
        HarnessConfig config = config();
        try (ProviderStub stub = ProviderStub.start()) {
            stub.otherwise(r -> r.header("authorization") != null && SIGV4.matcher(r.header("authorization")).matches()
                    ? ProviderStub.ok(ReplayProxyTest.BEDROCK_ANSWER) : ProviderStub.status(403));
            LiveTransport live = LiveTransport.connect(new Provider(stub.baseUrl(), null), AWS::get);
            try (ReplayProxy proxy = ReplayProxy.builder(config).mode(Mode.RECORD_MISSING).upstream(live).build()
                    .start()) {
                assertEquals(200, post(proxy).statusCode());
            }
            assertTrue(stub.received().get(0).header("x-amz-date").matches("\\d{8}T\\d{6}Z"));
        }
    }

    @Test
    void withNeitherCredentialTheClientGetsA502NamingBothWaysAndNothingIsSentOrWritten() throws Exception {
        HarnessConfig config = config();
        try (ProviderStub stub = ProviderStub.start()) {
            LiveTransport live = LiveTransport.connect(new Provider(stub.baseUrl(), null),
                    Map.<String, String>of()::get);
            try (ReplayProxy proxy = ReplayProxy.builder(config).mode(Mode.RECORD_MISSING).upstream(live).build()
                    .start()) {
                HttpResponse<String> r = post(proxy);
                assertEquals(502, r.statusCode());
                JsonNode body = Json.readTree(r.body());
                assertEquals(LiveMessages.BEDROCK_NO_CREDENTIALS, body.path("message").asString(),
                        "the AWS SDK shows Bedrock's message: what to set");
                assertEquals("InternalServerException", body.path("__type").asString());
            }
            assertTrue(stub.received().isEmpty(), "nothing reached Bedrock");
        }
        assertTrue(noCassette(config));
    }

    @Test
    void aRequestFromAnthropicJavasBedrockBackendIsForwardedToItsInvokePath() throws Exception {
        HarnessConfig config = config();
        String model = "anthropic.claude-sonnet-4-5-20250929-v1:0";
        String answer = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + model
                + "\",\"content\":[{\"type\":\"text\",\"text\":\"done\"}],\"stop_reason\":\"end_turn\","
                + "\"usage\":{\"input_tokens\":9,\"output_tokens\":1}}";
        try (ProviderStub stub = ProviderStub.start()) {
            stub.otherwise(r -> ("Bearer " + KEY).equals(r.header("authorization"))
                    ? ProviderStub.ok(answer) : ProviderStub.status(403));
            LiveTransport live = LiveTransport.connect(new Provider(stub.baseUrl(), "AWS_BEARER_TOKEN_BEDROCK"),
                    Map.of("AWS_BEARER_TOKEN_BEDROCK", KEY)::get);
            try (ReplayProxy proxy = ReplayProxy.builder(config).mode(Mode.RECORD_MISSING).upstream(live).build()
                    .start()) {
                HttpResponse<String> r = post(proxy, "/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke",
                        "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":64,"
                                + "\"messages\":[{\"role\":\"user\",\"content\":\"plan\"}]}");
                assertEquals(200, r.statusCode(), r.body());
            }
            ProviderStub.Received got = stub.received().get(0);
            assertEquals("/v1/model/" + model + "/invoke", got.path(), "the cloud's path, not /messages");
            assertFalse(got.json().has("model"), got.body());
            assertEquals("bedrock-2023-05-31", got.json().path("anthropic_version").asString());
            assertEquals(null, got.header("x-api-key"));
        }
    }
}
