package dev.resilienceharness.clients.springai;

import com.openai.client.OpenAIClient;
import com.openai.client.OpenAIClientAsync;
import com.openai.client.OpenAIClientAsyncImpl;
import com.openai.client.OpenAIClientImpl;
import com.openai.core.ClientOptions;
import dev.resilienceharness.clients.openai.RunHttpClient;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.loop.LoopRun;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/**
 * A real Spring AI {@link OpenAiChatModel} bound to one scenario run: the openai-java client underneath sends every
 * attempt, its own retries included, to the run's cassettes and fault plan, and waits and reads the time on the
 * run's virtual clock, through the openai-java adapter's HTTP client and sleeper. Everything else (maxRetries,
 * timeout, model, tools) is Spring AI's, as the team configures it.
 *
 * <p>In Spring AI 2 the chat model only sends the tools' definitions; the {@link ChatClient}'s
 * {@link ToolCallingAdvisor} executes the tools the model asks for. {@link #chatClientBuilder} is Spring AI's own
 * {@code ChatClient.Builder} whose advisor runs each tool through the run's tool gate ({@code run.tool}, layer
 * {@code "Spring AI"}): it meets the scenario's {@code tool_faults:} and is in the run's trace.
 *
 * <pre>{@code
 * OpenAiChatModel model = HarnessSpringAi.chatModel(run);                       // Spring AI's defaults
 * OpenAiChatModel model = HarnessSpringAi.builder(run)
 *         .options(OpenAiChatOptions.builder().model("gpt-4o-mini").maxRetries(0).build())
 *         .build();                                                            // as production sets it
 * ChatClient client = HarnessSpringAi.chatClientBuilder(run, model).build();  // was ChatClient.builder(model)
 * }</pre>
 */
public final class HarnessSpringAi {

    /** How the run's trace and violations name this SDK: Spring AI's OpenAI module over its openai-java. */
    public static final String SDK = "spring-ai-openai " + version(OpenAiChatModel.class) + " (openai-java "
            + version(OpenAIClient.class) + ")";

    /**
     * The API key the client carries when the options name none. Nothing is sent anywhere: the run answers every
     * attempt, and recording sends with the key the recorder is given.
     */
    static final String NO_KEY = "no-key-replayed-by-resilience-harness";

    /** Where the client thinks it sends when the options name no base URL (Spring AI's own default). */
    static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    private HarnessSpringAi() {
    }

    /**
     * A chat model with Spring AI's defaults ({@code maxRetries} 3, a 60 s timeout, its default model), as an
     * application gets it from {@code spring.ai.openai.*} with no settings.
     */
    public static OpenAiChatModel chatModel(LoopRun run) {
        return builder(run).build();
    }

    /** A builder for a chat model with the options the team's production code sets. */
    public static Builder builder(LoopRun run) {
        return new Builder(run);
    }

    /**
     * Spring AI's own {@code ChatClient.Builder} over {@code chatModel}, as {@code ChatClient.builder(chatModel)}
     * makes it, except that its {@link ToolCallingAdvisor} executes tools with Spring AI's default
     * {@link ToolCallingManager} run through the run's tool gate.
     */
    public static ChatClient.Builder chatClientBuilder(LoopRun run, ChatModel chatModel) {
        return chatClientBuilder(run, chatModel, ToolCallingManager.builder().build());
    }

    /** {@link #chatClientBuilder(LoopRun, ChatModel)} over {@link #chatModel}: Spring AI's defaults throughout. */
    public static ChatClient.Builder chatClientBuilder(LoopRun run) {
        return chatClientBuilder(run, chatModel(run));
    }

    /**
     * As {@link #chatClientBuilder(LoopRun, ChatModel)}, with the team's own tool-calling manager (its
     * {@code ToolExecutionExceptionProcessor}, its tool call limits) run through the run's tool gate.
     */
    public static ChatClient.Builder chatClientBuilder(LoopRun run, ChatModel chatModel,
            ToolCallingManager toolCallingManager) {
        return ChatClient.builder(chatModel, ObservationRegistry.NOOP, null, null,
                ToolCallingAdvisor.builder().toolCallingManager(toolCallingManager(run, toolCallingManager)));
    }

    /**
     * {@code toolCallingManager} with every tool it executes run through the run's tool gate: for code that builds
     * its {@link ToolCallingAdvisor} itself, or calls {@code executeToolCalls} on a chat model's answers.
     */
    public static ToolCallingManager toolCallingManager(LoopRun run, ToolCallingManager toolCallingManager) {
        return toolCallingManager instanceof RunToolCallingManager ? toolCallingManager
                : new RunToolCallingManager(run, toolCallingManager);
    }

    /**
     * The openai-java client Spring AI would build from {@code options} ({@code maxRetries}, {@code timeout},
     * {@code baseUrl}, {@code organizationId}, custom headers), bound to {@code run}: for code that builds its
     * {@code OpenAiChatModel} itself, with {@code OpenAiChatModel.builder().openAiClient(...)}.
     */
    public static OpenAIClient openAiClient(LoopRun run, OpenAiChatOptions options) {
        return new OpenAIClientImpl(clientOptions(run.http(), options));
    }

    /** As {@link #openAiClient}, the asynchronous client that {@link OpenAiChatModel#stream} uses. */
    public static OpenAIClientAsync openAiClientAsync(LoopRun run, OpenAiChatOptions options) {
        return new OpenAIClientAsyncImpl(clientOptions(run.http(), options));
    }

    /** What Spring AI's {@code OpenAiSetup} builds, with the run's HTTP, sleeper and clock in place of OkHttp's. */
    static ClientOptions clientOptions(HttpEndpoint http, OpenAiChatOptions options) {
        RunHttpClient client = RunHttpClient.forFramework(http, SDK);
        ClientOptions.Builder b = ClientOptions.builder()
                .httpClient(client)
                .sleeper(client.sleeper())
                .clock(http.clock())
                // Streams are read on the caller's thread: the run's, not a pool the SDK would start per client.
                .streamHandlerExecutor(Runnable::run)
                .baseUrl(options.getBaseUrl() != null ? options.getBaseUrl() : DEFAULT_BASE_URL)
                .organization(options.getOrganizationId())
                .maxRetries(options.getMaxRetries())
                .putHeader("User-Agent", "spring-ai-openai")
                .apiKey(options.getApiKey() != null && !options.getApiKey().isEmpty() ? options.getApiKey() : NO_KEY);
        if (options.getTimeout() != null) {
            b.timeout(options.getTimeout());
        }
        if (options.getCustomHeaders() != null) {
            options.getCustomHeaders().forEach(b::putHeader);
        }
        return b.build();
    }

    private static String version(Class<?> type) {
        String v = type.getPackage() == null ? null : type.getPackage().getImplementationVersion();
        return v == null ? "(unknown version)" : v;
    }

    /** Builds a chat model bound to one run, with the options production code gives Spring AI. */
    public static final class Builder {

        private final LoopRun run;
        private OpenAiChatOptions options;
        private ToolCallingManager toolCallingManager;
        private ObservationRegistry observationRegistry;

        private Builder(LoopRun run) {
            this.run = Objects.requireNonNull(run, "run");
        }

        /**
         * The chat options, as production sets them ({@code spring.ai.openai.max-retries=0} is
         * {@code OpenAiChatOptions.builder().maxRetries(0)}); unset ones keep Spring AI's defaults.
         */
        public Builder options(OpenAiChatOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * The tool-calling manager, when production gives one. In Spring AI 2 the model only asks it for the tools'
         * definitions; give it to {@link HarnessSpringAi#chatClientBuilder(LoopRun, ChatModel, ToolCallingManager)}
         * for the tools it executes.
         */
        public Builder toolCallingManager(ToolCallingManager toolCallingManager) {
            this.toolCallingManager = toolCallingManager;
            return this;
        }

        /** The observation registry, when production gives one. */
        public Builder observationRegistry(ObservationRegistry observationRegistry) {
            this.observationRegistry = observationRegistry;
            return this;
        }

        public OpenAiChatModel build() {
            OpenAiChatOptions o = options != null ? options : OpenAiChatOptions.builder().build();
            OpenAiChatModel.Builder b = OpenAiChatModel.builder()
                    .options(o)
                    .openAiClient(openAiClient(run, o))
                    .openAiClientAsync(openAiClientAsync(run, o));
            if (toolCallingManager != null) {
                b.toolCallingManager(toolCallingManager);
            }
            if (observationRegistry != null) {
                b.observationRegistry(observationRegistry);
            }
            return b.build();
        }
    }
}
