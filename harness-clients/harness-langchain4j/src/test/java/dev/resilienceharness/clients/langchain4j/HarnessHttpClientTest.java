package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.transport.ProcessRecycled;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class HarnessHttpClientTest {

    @TempDir
    Path dir;

    private static HttpClient client(LoopRun run, Duration readTimeout) {
        return new HarnessHttpClientBuilder(run.http(), new SdkRetries(), run::waited).readTimeout(readTimeout)
                .build();
    }

    @Test
    void aRecordedAnswerIsASuccessfulResponseWithItsStatusHeadersAndBody() throws Exception {
        AtomicReference<SuccessfulHttpResponse> got = new AtomicReference<>();
        ScenarioResult result = Probe.run(dir, "calm",
                run -> got.set(client(run, Duration.ofSeconds(60)).execute(Probe.plan(Probe.PLAN_BODY))));

        SuccessfulHttpResponse response = got.get();
        assertEquals(200, response.statusCode());
        assertEquals(List.of("application/json"), response.headers().get("content-type"));
        JsonNode body = Json.readTree(response.body());
        assertEquals("1. reproduce 2. fix 3. test",
                body.get("choices").get(0).get("message").get("content").asString());
        CallRecord call = result.trace().calls().get(0);
        assertEquals("plan", call.op());
        assertEquals("langchain4j-open-ai 1.19.0", call.sdk());
        assertEquals(0, call.sdkRetry());
    }

    @Test
    void a429IsAnHttpExceptionWithTheStatusAndTheErrorBodyAndNoHeaders() throws Exception {
        AtomicReference<HttpException> got = new AtomicReference<>();
        Probe.run(dir, "quota", run -> got.set(assertThrows(HttpException.class,
                () -> client(run, Duration.ofSeconds(60)).execute(Probe.plan(Probe.PLAN_BODY)))));

        assertEquals(429, got.get().statusCode());
        assertTrue(got.get().getMessage().contains("\"code\":\"rate_limit_exceeded\""), got.get().getMessage());
    }

    @Test
    void aTimeoutIsLangchain4jsTimeoutExceptionAfterTheReadTimeoutOnTheVirtualClock() throws Exception {
        AtomicReference<TimeoutException> got = new AtomicReference<>();
        AtomicReference<java.time.Instant> after = new AtomicReference<>();
        Probe.run(dir, "timeout", run -> {
            got.set(assertThrows(TimeoutException.class,
                    () -> client(run, Duration.ofSeconds(7)).execute(Probe.plan(Probe.PLAN_BODY))));
            after.set(run.now());
        });

        HttpTimeoutException cause = assertInstanceOf(HttpTimeoutException.class, got.get().getCause());
        assertEquals("request timed out: no answer within the read timeout of 7000 ms (a timeout fault of the"
                + " scenario, on the virtual clock)", cause.getMessage());
        assertEquals(VirtualClock.EPOCH.plusSeconds(7), after.get());
    }

    @Test
    void aFirstTokenLaterThanTheReadTimeoutIsATimeoutToo() throws Exception {
        AtomicReference<TimeoutException> got = new AtomicReference<>();
        ScenarioResult result = Probe.run(dir, "slow", run -> got.set(assertThrows(TimeoutException.class,
                () -> client(run, Duration.ofSeconds(2)).execute(Probe.plan(Probe.PLAN_BODY)))));

        assertInstanceOf(java.net.SocketTimeoutException.class, got.get().getCause().getCause());
        assertEquals(CallRecord.Result.TRANSIENT, result.trace().calls().get(0).result());
    }

    @Test
    void aCrashPassesThroughUntouched() throws Exception {
        List<Throwable> thrown = new ArrayList<>();
        ScenarioResult result = Probe.run(dir, "crash", run -> {
            try {
                client(run, Duration.ofSeconds(60)).execute(Probe.plan(Probe.PLAN_BODY));
            } catch (ProcessRecycled e) {
                thrown.add(e);
                throw e;
            }
        });

        assertEquals(1, thrown.size());
        assertEquals(1, result.trace().restarts().size());
    }

    @Test
    void aMissIsACassetteMissExceptionWithTheHarnessMessage() throws Exception {
        AtomicReference<CassetteMissException> got = new AtomicReference<>();
        Probe.run(dir, "calm", run -> got.set(assertThrows(CassetteMissException.class,
                () -> client(run, Duration.ofSeconds(60)).execute(Probe.plan(Probe.PLAN_BODY.replace("plan the fix",
                        "plan another fix"))))));

        assertTrue(got.get().getMessage().startsWith("no cassette for op 'plan': looked for "),
                got.get().getMessage());
    }

    /** What a listener was told, in order. */
    private static final class Heard implements ServerSentEventListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void onOpen(SuccessfulHttpResponse response) {
            events.add("open " + response.statusCode());
        }

        @Override
        public void onError(Throwable error) {
            events.add("error " + error.getClass().getSimpleName());
        }

        @Override
        public void onClose() {
            events.add("close");
        }
    }

    @Test
    void theStreamingVariantHandsTheAnswerAsEventsToTheParserOnTheCallingThread() throws Exception {
        Heard heard = new Heard();
        AtomicReference<byte[]> parsed = new AtomicReference<>();
        AtomicReference<Thread> parsedOn = new AtomicReference<>();
        ServerSentEventParser parser = (in, listener) -> {
            try {
                parsed.set(in.readAllBytes());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            parsedOn.set(Thread.currentThread());
            heard.events.add("parsed");
        };
        AtomicReference<Thread> caller = new AtomicReference<>();
        Probe.run(dir, "calm", run -> {
            caller.set(Thread.currentThread());
            client(run, Duration.ofSeconds(60)).execute(Probe.plan(Probe.PLAN_BODY), parser, heard);
        });

        assertEquals(List.of("open 200", "parsed", "close"), heard.events);
        assertEquals(caller.get(), parsedOn.get());
        String events = new String(parsed.get(), StandardCharsets.UTF_8);
        // The recorded JSON answer, as the events a provider streams for it (core's ChunkStreams): the assistant's
        // role first, then its text in content deltas.
        assertTrue(events.startsWith("data: {"), events);
        assertTrue(events.contains("\"delta\":{\"role\":\"assistant\""), events);
        StringBuilder text = new StringBuilder();
        for (String event : events.split("\n\n")) {
            String data = event.substring("data: ".length());
            if (data.startsWith("{")) {
                text.append(Json.readTree(data).path("choices").path(0).path("delta").path("content").asString(""));
            }
        }
        assertEquals("1. reproduce 2. fix 3. test", text.toString(), events);
        assertTrue(events.endsWith("data: [DONE]\n\n"), events);
    }

    @Test
    void theStreamingVariantReportsA429OrAMissAsOneError() throws Exception {
        Heard quota = new Heard();
        ServerSentEventParser never = (in, listener) -> quota.events.add("parsed");
        Probe.run(dir, "quota", run -> client(run, Duration.ofSeconds(60)).execute(Probe.plan(Probe.PLAN_BODY),
                never, quota));
        assertEquals(List.of("error HttpException"), quota.events);

        Heard miss = new Heard();
        Probe.run(dir, "calm", run -> client(run, Duration.ofSeconds(60)).execute(Probe.plan("{\"other\": 1}"),
                never, miss));
        assertEquals(List.of("error CassetteMissException"), miss.events);
    }

    @Test
    void thePathIsTheUrlsPath() {
        assertEquals("/v1/chat/completions", HarnessHttpClient.path("https://harness.invalid/v1/chat/completions"));
        assertEquals("/v1/chat/completions", HarnessHttpClient.path("https://harness.invalid/v1/chat/completions?x=1"));
        assertEquals("/", HarnessHttpClient.path("https://harness.invalid"));
    }

    @Test
    void aCompactBodyIsTheSameRequestAsThePrettyPrintedOne() throws Exception {
        AtomicReference<SuccessfulHttpResponse> got = new AtomicReference<>();
        // Pretty-printed by langchain4j, compact here: the fingerprint is of the canonical JSON, so both are answered.
        Probe.run(dir, "calm", run -> got.set(client(run, Duration.ofSeconds(60)).execute(Probe.plan(
                "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"plan the fix\"}],"
                        + "\"stream\":false}"))));
        assertEquals(200, got.get().statusCode());
    }
}
