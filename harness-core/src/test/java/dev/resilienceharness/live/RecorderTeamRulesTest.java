package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.secrets.Finding;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code resilience:record} redacts what the team's own gitleaks rules find, so that the scan of a cassette it wrote,
 * which runs the same rules, finds nothing; what the team's allowlist accepts is kept.
 */
class RecorderTeamRulesTest {

    /** An internal token no built-in rule knows. */
    private static final String TOKEN = "acme_live_q8zr2lm5np0xv7tb4kc1wd9y";
    /** A token of the same shape the team's allowlist accepts. */
    private static final String ALLOWED = "acme_live_000000000000000000000000";

    private static final String TEAM_RULES = """
            [[rules]]
            id = "acme-internal-token"
            regex = '''acme_(?:live|test)_([a-z0-9]{24})'''
            keywords = ["acme_"]

            [allowlist]
            regexes = ['''^0+$''']
            """;

    @TempDir
    Path dir;

    private ProviderStub stub;

    @BeforeEach
    void start() throws IOException {
        stub = ProviderStub.start();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    private HarnessConfig config() throws Exception {
        Files.writeString(dir.resolve(".gitleaks.toml"), TEAM_RULES, StandardCharsets.UTF_8);
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, """
                version: 1
                policy: {max_total_wait: 30s}
                requests:
                  plan: {model: m, messages: [{role: user, content: plan the fix}]}
                scenarios:
                  - {name: s, ops: [plan], faults: []}
                provider:
                  base_url: %s
                  api_key_env: PROVIDER_API_KEY
                """.formatted(stub.baseUrl()), StandardCharsets.UTF_8);
        return ConfigLoader.load(yaml);
    }

    @Test
    void aTokenOfTheTeamsRuleIsRedactedBeforeTheCassetteIsWritten() throws Exception {
        stub.then(ProviderStub.ok(ProviderStub.completion("use " + TOKEN + " and " + ALLOWED)));
        HarnessConfig config = config();
        LiveTransport live = LiveTransport.connect(config.provider(), ProviderStub.ENV::get, Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        RecordSummary summary = new Recorder(config, Mode.RECORD_MISSING, live, RecordingRedaction.forConfig(config))
                .record();
        assertEquals(RecordSummary.Result.RECORDED, summary.entries().get(0).result(), summary.toString());

        Path cassette;
        try (Stream<Path> files = Files.list(config.cassettes())) {
            cassette = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
        }
        String written = Files.readString(cassette);
        assertFalse(written.contains(TOKEN), written);
        String marker = "[REDACTED:acme-internal-token:"
                + Finding.fingerprint("acme-internal-token", "q8zr2lm5np0xv7tb4kc1wd9y").substring(0, 8) + "]";
        assertTrue(written.contains("use acme_live_" + marker + " and " + ALLOWED),
                "the secret group is replaced, the allowlisted token kept: " + written);
        assertEquals(List.of(), SecretsInCassettes.scan(config).findings(), "the scan runs the same rules");
    }
}
