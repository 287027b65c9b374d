package dev.resilienceharness.clients.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Provider;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.HttpForwarder;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.Message;

/**
 * Recording through the adapter to Bedrock: the SDK's requests, signed with the adapter's placeholder credentials, are
 * signed again with the environment's AWS credentials (SigV4) for a Bedrock Runtime stand-in on 127.0.0.1 that checks
 * each signature with the AWS SDK's own signer, or carry a Bedrock API key as a Bearer token; then the recording
 * replays offline, and no credential is on disk.
 */
class BedrockRecordingTest {

    private static final String MODEL = "anthropic.claude-3-haiku-20240307-v1:0";
    private static final String ACCESS_KEY = "AKIDRECORDINGTEST";
    private static final String SECRET = "recording-secret-never-on-disk";
    private static final String SESSION = "recording-session-token-never-on-disk";
    private static final String REGION = "us-west-2";
    private static final String API_KEY = "bedrock-api-key-never-on-disk";

    private static final String YAML = """
            version: 1
            loop: com.acme.BedrockLoop
            policy: {max_attempts: 1, max_total_wait: 30s}
            scenarios:
              - {name: two-steps, ops: [plan, patch], faults: []}
            """;

    @TempDir
    Path dir;

    /** What the stand-in saw of each request: its path, whether its signature was the SDK signer's, its credential. */
    record Seen(String path, boolean validSignature, String authorization, String sdkAuthorization, String body) {
    }

    /** Bedrock Runtime on 127.0.0.1: checks the SigV4 signature with the AWS SDK's signer, answers Converse. */
    static final class SigningBedrock implements AutoCloseable {
        final HttpServer server;
        final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());

        SigningBedrock() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/model/", this::answer);
            server.start();
        }

        URI baseUrl() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        }

        private void answer(HttpExchange exchange) throws IOException {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            String sdk = auth != null && auth.startsWith("AWS4-HMAC-SHA256 ") ? sdkSignature(exchange, body) : null;
            boolean valid = sdk != null && sdk.equals(auth);
            String text = new String(body, StandardCharsets.UTF_8);
            seen.add(new Seen(exchange.getRequestURI().getRawPath(), valid, auth, sdk, text));
            boolean bearer = ("Bearer " + API_KEY).equals(auth);
            if (!valid && !bearer) {
                send(exchange, 403, "{\"message\":\"The request signature we calculated does not match\"}",
                        "AccessDeniedException");
                return;
            }
            String step = text.contains("patch") ? "patch" : "plan";
            send(exchange, 200, "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"" + step
                    + " done\"}]}},\"stopReason\":\"end_turn\",\"usage\":{\"inputTokens\":8,\"outputTokens\":2,"
                    + "\"totalTokens\":10},\"metrics\":{\"latencyMs\":40}}", null);
        }

        /** The Authorization the AWS SDK's own SigV4 signer gives the request as it arrived, at its X-Amz-Date. */
        private String sdkSignature(HttpExchange exchange, byte[] body) {
            String date = exchange.getRequestHeaders().getFirst("X-Amz-Date");
            if (date == null) {
                return null;
            }
            SdkHttpFullRequest.Builder request = SdkHttpFullRequest.builder().method(SdkHttpMethod.POST)
                    .uri(URI.create(baseUrl() + exchange.getRequestURI().getRawPath()));
            // The headers the request says it signed, besides those the signer adds itself.
            String signedHeaders = exchange.getRequestHeaders().getFirst("Authorization")
                    .replaceAll(".*SignedHeaders=([^,]*),.*", "$1");
            for (String name : signedHeaders.split(";")) {
                if (!List.of("host", "x-amz-date", "x-amz-security-token").contains(name)) {
                    request.putHeader(name, exchange.getRequestHeaders().getFirst(name));
                }
            }
            Clock at = Clock.fixed(LocalDateTime.parse(date, DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'"))
                    .toInstant(ZoneOffset.UTC), ZoneOffset.UTC);
            SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
                    .identity(AwsSessionCredentialsIdentity.create(ACCESS_KEY, SECRET, SESSION))
                    .request(request.build())
                    .payload(ContentStreamProvider.fromByteArray(body))
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "bedrock")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, REGION)
                    .putProperty(software.amazon.awssdk.http.auth.spi.signer.HttpSigner.SIGNING_CLOCK, at));
            return signed.request().firstMatchingHeader("Authorization").orElse(null);
        }

        private static void send(HttpExchange exchange, int status, String body, String errorType)
                throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (errorType != null) {
                exchange.getResponseHeaders().add("x-amzn-ErrorType", errorType);
            }
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    /** A team's two-step loop on a default client: one Converse call per op. */
    static final class TwoSteps implements AgentLoop {
        @Override
        public List<Outcome> run(LoopRun run) {
            BedrockRuntimeClient client = HarnessBedrock.client(run);
            List<Outcome> outcomes = new ArrayList<>();
            for (String op : run.ops()) {
                try (var scope = run.op(op)) {
                    String text = client.converse(r -> r.modelId(MODEL).messages(Message.builder()
                            .role(ConversationRole.USER).content(ContentBlock.fromText("Do the " + op + " step."))
                            .build())).output().message().content().get(0).text();
                    outcomes.add(Outcome.ok(op, tools.jackson.databind.node.JsonNodeFactory.instance
                            .stringNode(text), 1));
                }
            }
            return outcomes;
        }
    }

    private HarnessConfig project() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML, StandardCharsets.UTF_8);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    private static Scenario scenario(HarnessConfig config) {
        return config.scenarios().get(0);
    }

    private void assertNoCredentialOnDisk(HarnessConfig config) throws IOException {
        List<Path> cassettes;
        try (Stream<Path> files = Files.list(config.cassettes())) {
            cassettes = files.filter(Files::isRegularFile).sorted().toList();
        }
        assertEquals(2, cassettes.size(), cassettes.toString());
        for (Path file : cassettes) {
            String text = Files.readString(file);
            for (String secret : List.of(ACCESS_KEY, SECRET, SESSION, API_KEY, "AWS4-HMAC-SHA256")) {
                assertFalse(text.contains(secret), file + " holds " + secret);
            }
        }
    }

    private RunTrace replayOffline(HarnessConfig config) throws Exception {
        RunTrace trace = Rehearsal.prepare(config, TwoSteps::new).run(scenario(config), null);
        assertNull(trace.failure());
        assertEquals(List.of("plan done", "patch done"), trace.outcomes().stream().map(o -> o.value().asString())
                .toList());
        for (CallRecord call : trace.calls()) {
            assertEquals(CallRecord.Result.OK, call.result());
            assertTrue(call.sdk().startsWith("aws-sdk-bedrockruntime 2.59"), call.sdk());
        }
        return trace;
    }

    @Test
    void awsCredentialsSignEachSdkRequestAnewAndTheSdksSignerAcceptsItThenTheRecordingReplaysOffline()
            throws Exception {
        HarnessConfig config = project();
        Map<String, String> env = Map.of("AWS_ACCESS_KEY_ID", ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", SECRET,
                "AWS_SESSION_TOKEN", SESSION, "AWS_REGION", REGION);
        try (SigningBedrock bedrock = new SigningBedrock()) {
            HttpForwarder live = LiveTransport.forwarder(new Provider(bedrock.baseUrl(), null), env::get,
                    Duration.ofSeconds(10));
            LoopRecorder.Recording recording = LoopRecorder.prepare(config, TwoSteps::new)
                    .recordMissing(scenario(config), live, RecordingRedaction.forConfig(config));
            assertEquals(2, recording.recorded());
            assertEquals(2, bedrock.seen.size(), bedrock.seen.toString());
            for (Seen s : bedrock.seen) {
                assertTrue(s.validSignature(), "the AWS SDK's signer computes the same signature: " + s);
                assertEquals("/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse", s.path());
                assertTrue(s.authorization().contains("Credential=" + ACCESS_KEY + "/"), s.authorization());
                assertTrue(s.authorization().contains("/" + REGION + "/bedrock/aws4_request"), s.authorization());
                assertFalse(s.authorization().contains(HarnessBedrock.REPLAY_KEY), "the placeholder signature is gone");
            }
        }
        assertNoCredentialOnDisk(config);
        replayOffline(config);
    }

    @Test
    void aBedrockApiKeyNamedByApiKeyEnvGoesAsABearerTokenAndTheRecordingReplaysOffline() throws Exception {
        HarnessConfig config = project();
        try (SigningBedrock bedrock = new SigningBedrock()) {
            HttpForwarder live = LiveTransport.forwarder(new Provider(bedrock.baseUrl(), "AWS_BEARER_TOKEN_BEDROCK"),
                    Map.of("AWS_BEARER_TOKEN_BEDROCK", API_KEY)::get, Duration.ofSeconds(10));
            LoopRecorder.prepare(config, TwoSteps::new).recordMissing(scenario(config), live,
                    RecordingRedaction.forConfig(config));
            assertEquals(List.of("Bearer " + API_KEY, "Bearer " + API_KEY),
                    bedrock.seen.stream().map(Seen::authorization).toList());
        }
        assertNoCredentialOnDisk(config);
        replayOffline(config);
    }

    @Test
    void aStandInThatChecksSignaturesRefusesAPlaceholderOne() throws Exception {
        // The check above can fail: the adapter's own placeholder signature, forwarded unchanged, is refused.
        try (SigningBedrock bedrock = new SigningBedrock()) {
            java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(URI.create(bedrock.baseUrl()
                            + "/model/m/converse")).header("X-Amz-Date", "20260101T000000Z")
                            .header("Authorization", "AWS4-HMAC-SHA256 Credential=" + HarnessBedrock.REPLAY_KEY
                                    + "/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date,"
                                    + " Signature=00").POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}"))
                            .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(403, r.statusCode());
            assertFalse(bedrock.seen.get(0).validSignature());
        }
    }
}
