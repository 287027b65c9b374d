package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.ProviderStub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An official OpenAI client (langchain4j-open-ai), pointed at the proxy's base URL, records through it, replays
 * from the cassettes with the provider gone, and sees the injected 429 and 503 as its own exceptions.
 */
class OfficialClientTest {

    @TempDir
    Path dir;

    HarnessConfig project() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                policy: {max_total_wait: 30s}
                scenarios:
                  - name: client-sees-faults
                    ops: [plan]
                    faults: [{quota: {retry_after: "1"}}, {server_error: {status: 503}}, none]
                provider: {base_url: "http://127.0.0.1:9/v1", api_key_env: PROVIDER_API_KEY}
                """);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    static ChatModel client(ReplayProxy proxy) {
        return OpenAiChatModel.builder()
                .baseUrl(proxy.baseUrl().toString())
                .apiKey("sk-client-key-unused-by-the-proxy")
                .modelName("stub-model")
                .temperature(0.0)
                .maxRetries(0) // let the 429 and the 503 surface
                .timeout(Duration.ofSeconds(5))
                .build();
    }

    static StreamingChatModel streamingClient(ReplayProxy proxy) {
        return OpenAiStreamingChatModel.builder()
                .baseUrl(proxy.baseUrl().toString())
                .apiKey("sk-client-key-unused-by-the-proxy")
                .modelName("stub-model")
                .temperature(0.0)
                .timeout(Duration.ofSeconds(5))
                .build();
    }

    @Test
    void recordsThroughTheProxyThenReplaysAndSeesInjectedFaults() throws Exception {
        HarnessConfig config = project();
        try (ProviderStub stub = ProviderStub.start()) {
            LiveTransport live = LiveTransport.connect(new dev.resilienceharness.config.Provider(stub.baseUrl(),
                    "PROVIDER_API_KEY"), Map.of("PROVIDER_API_KEY", ProviderStub.KEY)::get);
            try (ReplayProxy recording = ReplayProxy.builder(config).mode(Mode.RECORD).upstream(live).build()
                    .start()) {
                assertEquals("answer to plan the fix", client(recording).chat("plan the fix"));
                assertEquals(1, stub.received().size());
                assertEquals("Bearer " + ProviderStub.KEY, stub.received().get(0).header("authorization"));
            }
        }
        try (Stream<Path> files = Files.list(config.cassettes())) {
            assertEquals(1, files.count());
        }

        // The provider is gone: only the cassette answers.
        try (ReplayProxy replay = ReplayProxy.builder(config).timeFactor(0).build().start()) {
            assertEquals("answer to plan the fix", client(replay).chat("plan the fix"));
            HttpException miss = assertInstanceOf(HttpException.class,
                    assertThrows(RuntimeException.class, () -> client(replay).chat("something never recorded"))
                            .getCause());
            assertEquals(404, miss.statusCode());
            assertTrue(miss.getMessage().contains("run mvn resilience:record"), miss.getMessage());

            CompletableFuture<ChatResponse> streamed = new CompletableFuture<>();
            StringBuilder partials = new StringBuilder();
            streamingClient(replay).chat("plan the fix", new StreamingChatResponseHandler() {
                @Override
                public void onPartialResponse(String partial) {
                    partials.append(partial);
                }

                @Override
                public void onCompleteResponse(ChatResponse response) {
                    streamed.complete(response);
                }

                @Override
                public void onError(Throwable error) {
                    streamed.completeExceptionally(error);
                }
            });
            ChatResponse complete = streamed.get(10, TimeUnit.SECONDS);
            assertEquals("answer to plan the fix", complete.aiMessage().text());
            assertEquals("answer to plan the fix", partials.toString(), "the answer arrived in chunks");
        }

        try (ReplayProxy faulty = ReplayProxy.builder(config).scenario("client-sees-faults").timeFactor(0).build()
                .start()) {
            ChatModel model = client(faulty);
            RateLimitException quota = assertThrows(RateLimitException.class, () -> model.chat("plan the fix"));
            assertEquals(429, assertInstanceOf(HttpException.class, quota.getCause()).statusCode());
            InternalServerException down = assertThrows(InternalServerException.class,
                    () -> model.chat("plan the fix"));
            assertEquals(503, assertInstanceOf(HttpException.class, down.getCause()).statusCode());
            assertEquals("answer to plan the fix", model.chat("plan the fix"), "the plan is used up: answered");
        }
    }
}
