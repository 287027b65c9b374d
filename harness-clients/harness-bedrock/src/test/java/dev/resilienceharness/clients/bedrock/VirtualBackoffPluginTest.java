package dev.resilienceharness.clients.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClientBuilder;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseRequest;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import software.amazon.awssdk.services.bedrockruntime.model.ThrottlingException;

/**
 * The retry strategy a client bound to a run keeps is the one the SDK resolves for the same settings, read while the
 * one client is built: the default mode, {@code aws.retryMode} (as {@code AWS_RETRY_MODE}), a mode or a configurator
 * set through {@code customize}, and a plugin's; the SDK's waits between its attempts go on the run's clock.
 */
class VirtualBackoffPluginTest {

    private static final ConverseRequest REQUEST = ConverseRequest.builder().modelId("amazon.nova-lite-v1:0")
            .messages(Message.builder().role(ConversationRole.USER).content(ContentBlock.fromText("Plan.")).build())
            .build();

    /** A Bedrock that throttles every attempt, and a clock that only counts the waits the SDK asks for. */
    static final class Throttling implements HttpEndpoint {
        final List<HttpAttempt> attempts = Collections.synchronizedList(new ArrayList<>());
        final List<Duration> waits = Collections.synchronizedList(new ArrayList<>());

        @Override
        public HttpAnswer exchange(HttpAttempt attempt) {
            attempts.add(attempt);
            return new HttpAnswer.Response(attempts.size() - 1, 429, Map.of("Content-Type",
                    List.of("application/json"), "x-amzn-ErrorType", List.of("ThrottlingException")),
                    "{\"__type\":\"ThrottlingException\",\"message\":\"Too many requests\"}"
                            .getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
        }

        @Override
        public InputStream body(HttpAnswer.Response response, Duration readTimeout) {
            return new ByteArrayInputStream(response.body());
        }

        @Override
        public Clock clock() {
            return Clock.systemUTC();
        }

        @Override
        public void sleep(Duration duration, String sdk) {
            assertEquals(BedrockSdk.LABEL, sdk);
            waits.add(duration);
        }

        @Override
        public Scope op(String op) {
            return () -> { };
        }
    }

    private static int syncAttempts(HarnessBedrock.Builder b, Throttling http) {
        try (BedrockRuntimeClient client = b.build()) {
            assertThrows(ThrottlingException.class, () -> client.converse(REQUEST));
        }
        assertEquals(http.attempts.size() - 1, http.waits.size(), "each retry waited on the run's clock");
        return http.attempts.size();
    }

    private static int asyncAttempts(AsyncBuilder b, Throttling http) {
        try (BedrockRuntimeAsyncClient client = b.build()) {
            CompletionException e = assertThrows(CompletionException.class, () -> client.converse(REQUEST).join());
            assertInstanceOf(ThrottlingException.class, e.getCause());
        }
        assertEquals(http.attempts.size() - 1, http.waits.size(), "each retry waited on the run's clock");
        return http.attempts.size();
    }

    @Test
    void aDefaultClientMakesTheAttemptsOfTheSdksDefaultModeAndWaitsOnTheRunsClock() {
        Throttling sync = new Throttling();
        assertEquals(3, syncAttempts(HarnessBedrock.builder(sync), sync), "2.59.1's standard mode");
        Throttling async = new Throttling();
        assertEquals(3, asyncAttempts(HarnessBedrock.asyncBuilder(async), async));
        assertTrue(sync.waits.stream().allMatch(d -> !d.isNegative() && !d.isZero()), sync.waits.toString());
    }

    @Test
    void theSdksWaitsAreTheSameInEveryRunTheirJitterHeldAtItsMiddle() {
        for (RetryMode mode : List.of(RetryMode.STANDARD, RetryMode.LEGACY, RetryMode.ADAPTIVE_V2)) {
            List<List<Duration>> runs = new ArrayList<>();
            for (int run = 0; run < 5; run++) {
                Throttling http = new Throttling();
                syncAttempts(HarnessBedrock.builder(http).retryMode(mode), http);
                runs.add(List.copyOf(http.waits));
            }
            assertTrue(runs.get(0).stream().allMatch(d -> !d.isZero() && !d.isNegative()), mode + ": " + runs.get(0));
            assertEquals(List.of(runs.get(0), runs.get(0), runs.get(0), runs.get(0), runs.get(0)), runs,
                    mode + ": drawn at random, the SDK's waits would differ from run to run");
        }
    }

    @Test
    void awsRetryModeLegacyStillGivesLegacysFourAttempts() {
        // The SDK reads the aws.retryMode system property before the AWS_RETRY_MODE variable (SdkSystemSetting).
        String before = System.getProperty("aws.retryMode");
        System.setProperty("aws.retryMode", "legacy");
        try {
            Throttling sync = new Throttling();
            assertEquals(4, syncAttempts(HarnessBedrock.builder(sync), sync));
            Throttling async = new Throttling();
            assertEquals(4, asyncAttempts(HarnessBedrock.asyncBuilder(async), async));
        } finally {
            if (before == null) {
                System.clearProperty("aws.retryMode");
            } else {
                System.setProperty("aws.retryMode", before);
            }
        }
    }

    @Test
    void aModeOrAConfiguratorSetThroughCustomizeIsKept() {
        Throttling legacy = new Throttling();
        assertEquals(4, syncAttempts(HarnessBedrock.builder(legacy)
                .customize(c -> c.overrideConfiguration(o -> o.retryStrategy(RetryMode.LEGACY))), legacy));
        Throttling five = new Throttling();
        assertEquals(5, asyncAttempts(HarnessBedrock.asyncBuilder(five)
                .customize(c -> c.overrideConfiguration(o -> o.retryStrategy(s -> s.maxAttempts(5)))), five));
        Throttling plugin = new Throttling();
        assertEquals(4, syncAttempts(HarnessBedrock.builder(plugin).customize(c -> c.addPlugin(
                config -> config.overrideConfiguration(o -> o.retryStrategy(RetryMode.LEGACY)))), plugin),
                "a mode a plugin of the team's leaves for the SDK to apply after the plugins");
        Throttling none = new Throttling();
        assertEquals(1, syncAttempts(HarnessBedrock.builder(none).noRetries(), none));
    }

    /** The strategy a client built with {@code change} and no plugin of the harness resolves: the former probe. */
    private static RetryStrategy probe(Consumer<BedrockRuntimeClientBuilder> change) {
        BedrockRuntimeClientBuilder b = BedrockRuntimeClient.builder().region(HarnessBedrock.REGION)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "k")));
        change.accept(b);
        try (BedrockRuntimeClient client = b.build()) {
            return client.serviceClientConfiguration().overrideConfiguration().retryStrategy().orElseThrow();
        }
    }

    private static RetryStrategy kept(Consumer<BedrockRuntimeClientBuilder> change) {
        try (BedrockRuntimeClient client = HarnessBedrock.builder(new Throttling()).customize(change).build()) {
            RetryStrategy s = client.serviceClientConfiguration().overrideConfiguration().retryStrategy()
                    .orElseThrow();
            return assertInstanceOf(VirtualBackoff.class, s).sdk();
        }
    }

    @Test
    void theKeptStrategyIsTheOneAClientBuiltWithTheSameSettingsResolves() {
        List<Consumer<BedrockRuntimeClientBuilder>> settings = List.of(
                b -> { },
                b -> b.overrideConfiguration(o -> o.retryStrategy(RetryMode.ADAPTIVE_V2)),
                b -> b.overrideConfiguration(o -> o.retryStrategy(RetryMode.LEGACY)),
                b -> b.overrideConfiguration(o -> o.retryStrategy(s -> s.maxAttempts(7))),
                b -> b.defaultsMode(software.amazon.awssdk.awscore.defaultsmode.DefaultsMode.STANDARD));
        for (Consumer<BedrockRuntimeClientBuilder> change : settings) {
            RetryStrategy expected = probe(change);
            RetryStrategy actual = kept(change);
            assertEquals(expected.getClass(), actual.getClass());
            assertEquals(expected.maxAttempts(), actual.maxAttempts());
        }
    }
}
