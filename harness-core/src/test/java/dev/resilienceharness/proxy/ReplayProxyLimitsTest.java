package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.ProviderStub;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** serve applies a scenario's provider_limits in real time, to clients out of process, over loopback HTTP. */
class ReplayProxyLimitsTest {

    private static final String PLAN = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"plan\"}]}";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private HarnessConfig project(String limits) throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                policy: {max_total_wait: 30s}
                scenarios:
                  - name: limited
                    provider_limits: %s
                """.formatted(limits));
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        ObjectNode answer = ProviderStub.completion("the plan");
        answer.putObject("usage").put("prompt_tokens", 100).put("completion_tokens", 50);
        CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()))
                .write((ObjectNode) Json.readTree(PLAN), answer, null);
        return config;
    }

    private HttpResponse<String> post(ReplayProxy proxy) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + proxy.port() + "/v1/chat/completions");
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(PLAN)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aFullWindowIsA429WithAScaledRetryAfterAndOpensAgainOnceItHasPassed() throws Exception {
        HarnessConfig config = project("{requests_per_minute: 2}");
        // A time factor of 0.01 makes the minute 600 ms of real time.
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("limited").timeFactor(0.01).build().start()) {
            assertEquals(200, post(proxy).statusCode());
            HttpResponse<String> second = post(proxy);
            assertEquals(200, second.statusCode());
            assertEquals(Optional.of("0"), second.headers().firstValue("x-ratelimit-remaining-requests"));
            HttpResponse<String> third = post(proxy);
            assertEquals(429, third.statusCode());
            assertEquals("rate_limit_exceeded", Json.readTree(third.body()).at("/error/code").asString());
            long ms = Long.parseLong(third.headers().firstValue("retry-after-ms").orElseThrow());
            assertTrue(ms >= 1 && ms <= 600, "retry-after-ms " + ms);
            assertEquals(Optional.of("2"), third.headers().firstValue("x-ratelimit-limit-requests"));
            // The reset is scaled as Retry-After is: within the 600 ms minute, never the provider's 60 s.
            String reset = third.headers().firstValue("x-ratelimit-reset-requests").orElseThrow();
            assertTrue(reset.matches("\\d{1,3}ms"), "x-ratelimit-reset-requests " + reset);
            assertTrue(Long.parseLong(reset.replace("ms", "")) <= 600, "x-ratelimit-reset-requests " + reset);
            String admittedReset = second.headers().firstValue("x-ratelimit-reset-requests").orElseThrow();
            assertTrue(admittedReset.matches("\\d{1,3}ms"), "x-ratelimit-reset-requests " + admittedReset);
            Thread.sleep(ms + 50);
            assertEquals(200, post(proxy).statusCode());
            List<ScenarioResult> results = proxy.stop();
            List<CallRecord> calls = results.get(0).trace().calls();
            assertEquals(CallRecord.RATE_LIMIT, calls.get(2).limit());
            // The retry came after the stated delay: no early retry is reported (the same request four times is one
            // op called four times, which the call budget judges as it would without limits).
            assertTrue(results.get(0).violations().stream().noneMatch(v -> v.line().contains("rate-limit 429")),
                    results.get(0).violations().toString());
        }
    }

    @Test
    void aSpentQuotaIsA429InsufficientQuotaWithoutRetryAfterAndRetryingItIsReported() throws Exception {
        HarnessConfig config = project("{token_quota: 100}");
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("limited").timeFactor(1).build().start()) {
            assertEquals(200, post(proxy).statusCode());
            HttpResponse<String> refused = post(proxy);
            assertEquals(429, refused.statusCode());
            assertEquals("insufficient_quota", Json.readTree(refused.body()).at("/error/code").asString());
            assertEquals(Optional.empty(), refused.headers().firstValue("Retry-After"));
            assertEquals(429, post(proxy).statusCode());
            ScenarioResult result = proxy.stop().get(0);
            assertEquals(150, result.spend().tokens());
            assertTrue(result.violations().stream().anyMatch(v -> v.line().contains(
                    "1 call after the token quota was spent (insufficient_quota")), result.violations().toString());
        }
    }
}
