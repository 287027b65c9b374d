package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.RequestOptions;
import com.anthropic.core.Timeout;
import com.anthropic.core.http.HttpMethod;
import com.anthropic.core.http.HttpRequest;
import com.anthropic.core.http.HttpRequestBody;
import com.anthropic.errors.AnthropicIoException;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SDK's HTTP client SPI over a run: what each attempt carries, and each fault as the SDK meets it. */
class RunHttpClientTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.anthropic.FixLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - name: calm
                ops: [plan]
                faults: []
              - name: timeout
                ops: [plan]
                faults: [timeout]
              - name: slow-past-the-read-timeout
                ops: [plan]
                faults: [{slow_first_token: {elapsed_ms: 3500}}]
              - name: quota
                ops: [plan]
                faults: [quota, quota, quota]
              - name: crash
                ops: [plan]
                faults: [crash]
            """;

    @TempDir
    Path dir;

    @Test
    void anAttemptCarriesTheApiPathTheSdksHeadersItsRetryNumberAndTheJsonBody() {
        HttpRequest request = HttpRequest.builder()
                .method(HttpMethod.POST)
                .baseUrl("https://api.anthropic.com")
                .addPathSegments("v1", "messages")
                .putHeader("X-Stainless-Retry-Count", "2")
                .putHeader("x-api-key", HarnessAnthropic.REPLAY_KEY)
                .body(HttpRequestBody.ofJson(Map.of("model", "claude-sonnet-4-5")))
                .build();

        HttpAttempt attempt = RunHttpClient.attempt(request, Duration.ofSeconds(30));

        assertEquals("anthropic-java 3.16.0", attempt.sdk());
        assertEquals("POST", attempt.method());
        assertEquals("messages", attempt.path());
        assertEquals(2, attempt.sdkRetry());
        assertEquals("harness-replay", attempt.header("X-API-KEY"));
        assertEquals(Duration.ofSeconds(30), attempt.timeout());
        assertEquals("{\"model\":\"claude-sonnet-4-5\"}", new String(attempt.body(), StandardCharsets.UTF_8));
    }

    @Test
    void aBackendsRequestIsResolvedToItsWholeUrlAsTheOkHttpClientDoesBeforeItIsAuthorized() {
        HttpRequest request = HttpRequest.builder()
                .method(HttpMethod.POST)
                .baseUrl("https://us-east5-aiplatform.googleapis.com/")
                .addPathSegments("v1", "projects", "p", "locations", "us-east5", "publishers", "anthropic", "models",
                        "claude-sonnet-4-5@20250929:rawPredict")
                .putQueryParam("beta", "true")
                .build();

        assertEquals("https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/"
                + "anthropic/models/claude-sonnet-4-5@20250929:rawPredict?beta=true",
                RunHttpClient.url(request));
        assertEquals("https://bedrock-runtime.us-east-1.amazonaws.com/model/a%20b/invoke",
                RunHttpClient.url(HttpRequest.builder().method(HttpMethod.POST)
                        .baseUrl("https://bedrock-runtime.us-east-1.amazonaws.com")
                        .addPathSegments("model", "a b", "invoke").build()), "a space quoted");
    }

    @Test
    void closingTheClientClosesItsBackendAsTheOkHttpClientDoes() {
        List<String> closed = new ArrayList<>();
        com.anthropic.backends.Backend backend = new com.anthropic.backends.Backend() {
            @Override
            public String baseUrl() {
                return "https://bedrock-runtime.us-east-1.amazonaws.com";
            }

            @Override
            public void close() {
                closed.add("closed");
            }
        };
        AnthropicClient client = HarnessAnthropic.builder(new dev.resilienceharness.clients.tck.AnsweringEndpoint(
                a -> "{}")).backend(backend).build();

        client.close();

        assertEquals(List.of("closed"), closed);
    }

    @Test
    void theTimeoutIsTheShorterOfTheReadAndRequestTimeouts() {
        assertEquals(Duration.ofMinutes(10), RunHttpClient.timeout(RequestOptions.builder()
                .timeout(Timeout.builder().build()).build()), "the SDK's defaults");
        assertEquals(Duration.ofSeconds(30), RunHttpClient.timeout(RequestOptions.builder()
                .timeout(Duration.ofSeconds(30)).build()));
        assertEquals(Duration.ofSeconds(3), RunHttpClient.timeout(RequestOptions.builder()
                .timeout(Timeout.builder().read(Duration.ofSeconds(3)).request(Duration.ofSeconds(30)).build())
                .build()));
        assertNull(RunHttpClient.timeout(RequestOptions.none()));
    }

    @Test
    void aTimeoutIsTheSdksOwnIoTimeoutWhichItRetriesAfterTheVirtualClockMovedOnByItsTimeout() {
        List<Throwable> seen = new ArrayList<>();
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", run -> {
            AnthropicClient client = HarnessAnthropic.builder(run).timeout(Duration.ofSeconds(30)).build();
            try (var scope = run.op("plan")) {
                new FixAgent(client).step("plan");
                return List.of(Outcome.ok("plan", null, 1));
            } catch (AnthropicIoException e) {
                seen.add(e);
                return List.of(Outcome.degraded("plan", "timeout", 1));
            }
        });

        ScenarioResult result = r.check("timeout");
        List<CallRecord> calls = result.trace().calls();

        assertEquals(List.of(), seen, "the SDK retried the timeout and its retry was answered");
        assertEquals(2, calls.size());
        assertEquals(CallRecord.Result.TRANSIENT, calls.get(0).result());
        assertEquals(1, calls.get(1).sdkRetry());
        // The retry went out after the 30 s timeout and the SDK's backoff (at most 500 ms).
        long after = calls.get(1).atNanos() - calls.get(0).atNanos();
        assertTrue(after >= Duration.ofSeconds(30).toNanos() && after <= Duration.ofMillis(30_500).toNanos(),
                after + " ns");
    }

    @Test
    void aTimeoutPastTheSdksRetriesReachesTheLoopAsAnAnthropicIoExceptionCausedBySocketTimeout() {
        List<Throwable> seen = new ArrayList<>();
        Rehearsals r = Rehearsals.of(dir, YAML.replace("faults: [timeout]", "faults: [timeout, timeout, timeout]"),
                "cassettes", run -> {
                    AnthropicClient client = HarnessAnthropic.client(run);
                    try (var scope = run.op("plan")) {
                        new FixAgent(client).step("plan");
                        return List.of(Outcome.ok("plan", null, 1));
                    } catch (AnthropicIoException e) {
                        seen.add(e);
                        return List.of(Outcome.degraded("plan", "timeout", 1));
                    }
                });

        ScenarioResult result = r.check("timeout");

        assertEquals(3, result.trace().calls().size());
        assertTrue(seen.get(0).getCause() instanceof SocketTimeoutException, seen.get(0).toString());
        // Under the SDK's default timeouts each attempt costs ten minutes of the provider's time, not of waiting.
        assertTrue(result.trace().calls().get(2).atNanos() >= Duration.ofMinutes(20).toNanos());
    }

    @Test
    void aFirstTokenPastTheReadTimeoutIsAReadTimeoutTheSdkDoesNotRetry() {
        List<Throwable> seen = new ArrayList<>();
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", run -> {
            AnthropicClient client = HarnessAnthropic.builder(run)
                    .timeout(Timeout.builder().read(Duration.ofSeconds(3)).build()).build();
            try (var scope = run.op("plan")) {
                new FixAgent(client).step("plan");
                return List.of(Outcome.ok("plan", null, 1));
            } catch (RuntimeException e) {
                seen.add(e);
                return List.of(Outcome.degraded("plan", "timeout", 1));
            }
        });

        ScenarioResult result = r.check("slow-past-the-read-timeout");

        assertEquals(1, result.trace().calls().size());
        assertEquals(CallRecord.Result.TRANSIENT, result.trace().calls().get(0).result());
        Throwable cause = seen.get(0);
        while (cause != null && !(cause instanceof SocketTimeoutException)) {
            cause = cause.getCause();
        }
        assertTrue(cause instanceof SocketTimeoutException, seen.get(0).toString());
        // As with the SDK's OkHttp client: the body read fails after the retry layer, so the SDK does not retry it.
        assertEquals("com.anthropic.errors.AnthropicInvalidDataException: Error reading response",
                seen.get(0).getClass().getName() + ": " + seen.get(0).getMessage());
    }

    @Test
    void theAsyncClientRetriesAndWaitsOnTheRunToo() {
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", run -> {
            AnthropicClient client = HarnessAnthropic.client(run);
            try (var scope = run.op("plan")) {
                client.async().messages().create(FixAgent.params("plan")).join();
                return List.of(Outcome.ok("plan", null, 1));
            } catch (java.util.concurrent.CompletionException e) {
                return List.of(Outcome.stopped("plan", null, 1));
            }
        });

        ScenarioResult result = r.check("quota");

        assertEquals(List.of(0, 1, 2), result.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        assertEquals(2, result.trace().waits().size());
        result.trace().waits().forEach(w -> assertEquals("anthropic-java 3.16.0", w.by()));
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void aStreamOfAStepRecordedWholeIsAnsweredFromItsCassetteAsTheMessagesApiSplitsIt() {
        // The cassettes here were recorded with create(...); createStreaming asks the same request as a stream, which
        // that answer serves, sent as the named events the API streams (see StreamingTest for recorded streams).
        StringBuilder text = new StringBuilder();
        List<com.anthropic.models.messages.RawMessageStreamEvent> events = new ArrayList<>();
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", run -> {
            text.setLength(0); // each run of the scenario reads the stream afresh
            events.clear();
            try (var scope = run.op("plan");
                    var stream = HarnessAnthropic.client(run).messages().createStreaming(FixAgent.params("plan"))) {
                stream.stream().forEach(e -> {
                    events.add(e);
                    e.contentBlockDelta().flatMap(d -> d.delta().text()).ifPresent(t -> text.append(t.text()));
                });
            }
            return List.of(Outcome.ok("plan", null, 1));
        });

        ScenarioResult result = r.check("calm");

        assertEquals("1. Allow '+' in the local part of the address pattern. 2. Add a test for a+b@example.com.",
                text.toString());
        assertTrue(events.get(0).isMessageStart(), events.toString());
        assertTrue(events.get(events.size() - 1).isMessageStop(), events.toString());
        assertEquals(1, result.trace().calls().size());
        assertEquals("done", result.trace().streams().get(0).end());
    }

    @Test
    void aCrashOnTheAsyncClientIsThrownAsTheErrorItIsNotHiddenInTheFuture() {
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", run -> {
            if (!run.journal().completed().isEmpty()) {
                return run.journal().completed();
            }
            try (var scope = run.op("plan")) {
                HarnessAnthropic.client(run).async().messages().create(FixAgent.params("plan")).join();
                Outcome ok = Outcome.ok("plan", null, 1);
                run.journal().record(ok);
                return List.of(ok);
            } catch (java.util.concurrent.CompletionException e) {
                // What a team writes around join(): had the crash come wrapped in here, the loop would swallow it.
                return List.of(Outcome.degraded("plan", "timeout", 1));
            }
        });

        ScenarioResult result = r.check("crash");

        assertEquals(1, result.trace().restarts().size());
        assertEquals(false, result.trace().restarts().get(0).swallowed());
        assertEquals(List.of(dev.resilienceharness.loop.Status.OK),
                result.trace().outcomes().stream().map(Outcome::status).toList());
    }
}
