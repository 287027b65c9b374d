package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.live.RecordSummary.Result;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A yaml {@code requests:} op whose request is Bedrock Converse ({@code modelId}) is recorded from Bedrock's path. */
class RecorderBedrockTest {

    private static final Map<String, String> AWS = Map.of("AWS_ACCESS_KEY_ID", "AKIDRECORDERTEST",
            "AWS_SECRET_ACCESS_KEY", "recorder-secret-never-on-disk", "AWS_REGION", "us-east-2");

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

    private HarnessConfig config() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                policy: {max_attempts: 3, max_total_wait: 30s}
                requests:
                  plan: {modelId: "amazon.nova-lite-v1:0", messages: [{role: user, content: [{text: plan the fix}]}]}
                scenarios:
                  - {name: happy, ops: [plan], faults: []}
                provider:
                  base_url: %s
                """.formatted(stub.baseUrl()), StandardCharsets.UTF_8);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    private RecordSummary record(HarnessConfig config, Map<String, String> env) throws Exception {
        LiveTransport live = LiveTransport.connect(config.provider(), env::get, Duration.ofSeconds(2),
                Duration.ofSeconds(2));
        return new Recorder(config, Mode.RECORD_MISSING, live, RecordingRedaction.forConfig(config)).record();
    }

    @Test
    void aConverseRequestIsSignedWithTheEnvironmentsAwsCredentialsAndPostedToItsModelsPath() throws Exception {
        stub.then(ProviderStub.ok("{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":"
                + "\"done\"}]}},\"stopReason\":\"end_turn\"}"));
        HarnessConfig config = config();
        RecordSummary summary = record(config, AWS);
        assertEquals(1, summary.count(Result.RECORDED), summary.toString());
        ProviderStub.Received got = stub.received().get(0);
        assertEquals("/v1/model/amazon.nova-lite-v1:0/converse", got.path());
        assertTrue(got.header("authorization").startsWith("AWS4-HMAC-SHA256 Credential=AKIDRECORDERTEST/"),
                got.header("authorization"));
        assertFalse(got.body().contains("modelId"), got.body());
        List<Path> cassettes;
        try (Stream<Path> files = Files.list(config.cassettes())) {
            cassettes = files.toList();
        }
        assertEquals(1, cassettes.size());
        String text = Files.readString(cassettes.get(0));
        assertTrue(text.contains("amazon.nova-lite-v1:0"), "the cassette keys the request with its modelId");
        assertFalse(text.contains("recorder-secret-never-on-disk") || text.contains("AWS4-HMAC-SHA256"), text);
    }

    @Test
    void withNeitherAKeyNorAwsCredentialsTheOpFailsNamingBothWaysAndNothingIsSent() throws Exception {
        RecordSummary summary = record(config(), Map.of());
        assertEquals(1, summary.count(Result.FAILED), summary.toString());
        assertTrue(summary.entries().get(0).line().contains(LiveMessages.BEDROCK_NO_CREDENTIALS),
                summary.entries().get(0).line());
        assertTrue(stub.received().isEmpty());
    }
}
