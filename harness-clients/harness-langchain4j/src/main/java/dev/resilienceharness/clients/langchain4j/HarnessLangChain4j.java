package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiResponsesChatModel;
import dev.langchain4j.model.openai.OpenAiResponsesStreamingChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.transport.McpTransport;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.resilienceharness.loop.LoopRun;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A real langchain4j {@link OpenAiChatModel} bound to one scenario run: hand it to the code that takes your model
 * and that code runs unchanged, in-process, on the run's cassettes, fault plan and virtual clock.
 *
 * <pre>{@code
 * OpenAiChatModel model = HarnessLangChain4j.builder(run).modelName("gpt-4o-mini").maxRetries(0).build();
 * try (var op = run.op("plan")) {
 *     ChatResponse answer = model.chat(ChatRequest.builder().messages(UserMessage.from("plan the fix")).build());
 * }
 * }</pre>
 *
 * <p>The model keeps langchain4j's defaults unless you change them on the builder: {@code maxRetries} 2, timeouts
 * connect 15 s and read 60 s. Its HTTP goes to {@code run.http()}; langchain4j offers no way to inject a sleeper or a
 * clock, so its retry waits stay {@code Thread.sleep}: the harness interrupts such a sleep after 50 ms and reports it
 * under bounded waiting, which is why a model meant to pass is built with {@code maxRetries(0)}.
 *
 * <p>Tools: {@link #aiServices} is langchain4j's own {@code AiServices} builder whose tool executions run through
 * the run's tool gate, and {@link #tools} the {@code @Tool} methods of objects for code that executes tool requests
 * itself.
 *
 * <p>MCP: {@link #mcpClient} is langchain4j-mcp's own {@code DefaultMcpClient} on one of the run's MCP servers, and
 * {@link #mcpTransport} the transport it is built on; hand the client to an {@code McpToolProvider} as in production.
 *
 * <p>The builder is langchain4j's own class; it is made directly, so an {@code OpenAiChatModelBuilderFactory} a
 * framework registers through {@code ServiceLoader} is not consulted.
 */
public final class HarnessLangChain4j {

    /** The base URL the model is given; nothing is ever sent there ({@code .invalid} cannot resolve). */
    public static final String BASE_URL = "https://harness.invalid/v1";

    /** The API key the model is given, so that no real key is needed or recorded. */
    public static final String API_KEY = "harness-replay";

    private HarnessLangChain4j() {
    }

    /** A default-configured model for {@code modelName} on {@code run}. */
    public static OpenAiChatModel chatModel(LoopRun run, String modelName) {
        Objects.requireNonNull(modelName, "modelName");
        return builder(run).modelName(modelName).build();
    }

    /**
     * The model's own builder, wired to {@code run}: set on it what your production code sets ({@code modelName},
     * {@code maxRetries(0)}, {@code timeout}, {@code listeners}, ...). Leave {@code httpClientBuilder},
     * {@code baseUrl} and {@code apiKey} as they are. Your {@code listeners(...)} are added after the adapter's own,
     * which marks where each {@code chat} call begins so that langchain4j's retries are told from your loop's calls.
     */
    public static OpenAiChatModel.OpenAiChatModelBuilder builder(LoopRun run) {
        Objects.requireNonNull(run, "run");
        return new HarnessChatModelBuilder(run);
    }

    /** A default-configured streaming model for {@code modelName} on {@code run}. */
    public static OpenAiStreamingChatModel streamingChatModel(LoopRun run, String modelName) {
        Objects.requireNonNull(modelName, "modelName");
        return streamingBuilder(run).modelName(modelName).build();
    }

    /**
     * The streaming model's own builder, wired to {@code run}. The answer streams on the calling thread, so
     * {@code chat(request, handler)} has called the handler when it returns; langchain4j's streaming model never
     * retries, so every failure reaches the handler's {@code onError} at once.
     */
    public static OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder streamingBuilder(LoopRun run) {
        Objects.requireNonNull(run, "run");
        return OpenAiStreamingChatModel.builder()
                .httpClientBuilder(singleAttemptClient(run))
                .baseUrl(BASE_URL)
                .apiKey(API_KEY);
    }

    /**
     * langchain4j's streaming model on the OpenAI Responses API ({@code POST /responses}), its own builder wired to
     * {@code run} as {@link #streamingBuilder} is: the answer streams on the calling thread as the Responses API's
     * named events, and every failure reaches the handler at once.
     */
    public static OpenAiResponsesStreamingChatModel.Builder responsesStreamingBuilder(LoopRun run) {
        Objects.requireNonNull(run, "run");
        return OpenAiResponsesStreamingChatModel.builder()
                .httpClientBuilder(singleAttemptClient(run))
                .baseUrl(BASE_URL)
                .apiKey(API_KEY);
    }

    /**
     * langchain4j's chat model on the OpenAI Responses API ({@code POST /responses}), its own builder wired to
     * {@code run}. It has no retry setting and makes one attempt per {@code chat}: a 429, 5xx or timeout reaches your
     * code at once, as langchain4j's exception.
     */
    public static OpenAiResponsesChatModel.Builder responsesBuilder(LoopRun run) {
        Objects.requireNonNull(run, "run");
        return OpenAiResponsesChatModel.builder()
                .httpClientBuilder(singleAttemptClient(run))
                .baseUrl(BASE_URL)
                .apiKey(API_KEY);
    }

    /**
     * The HTTP client builder for another langchain4j model that takes one ({@code httpClientBuilder(...)}), such as
     * langchain4j-anthropic's {@code AnthropicStreamingChatModel}: give it this, {@link #BASE_URL} and
     * {@link #API_KEY}, and every request the model sends is one call of {@code run}, answered as the streaming
     * models' are (the trace names the calls with this adapter's label, {@code langchain4j-open-ai}).
     */
    public static HarnessHttpClientBuilder httpClientBuilder(LoopRun run) {
        return singleAttemptClient(Objects.requireNonNull(run, "run"));
    }

    /**
     * langchain4j's own {@code AiServices} builder for {@code aiService}, as {@code AiServices.builder(aiService)}
     * makes it, except that every tool it executes ({@code .tools(...)}, {@code .toolProvider(...)}) runs through the
     * run's tool gate, as layer {@code "langchain4j"}: it meets the scenario's {@code tool_faults:} and is in the
     * run's trace. A failure the fault injects reaches langchain4j as a {@code @Tool} method's exception does, so
     * the {@code toolExecutionErrorHandler} (by default: its message goes to the model) decides. Tools a dynamic
     * {@code ToolProvider} adds after the first round are not gated.
     */
    public static <T> AiServices<T> aiServices(LoopRun run, Class<T> aiService) {
        return GatedTools.aiServices(Objects.requireNonNull(run, "run"), aiService);
    }

    /**
     * The {@code @Tool} methods of {@code toolObjects}, each with the {@code DefaultToolExecutor} a team builds for
     * it ({@code new DefaultToolExecutor(object, method)}), run through the run's tool gate: for code that executes
     * the model's tool requests itself. As langchain4j's executor does with a method's exception, an injected
     * failure comes back as an error result whose text is its message.
     */
    public static Map<ToolSpecification, ToolExecutor> tools(LoopRun run, Object... toolObjects) {
        return GatedTools.tools(Objects.requireNonNull(run, "run"), toolObjects);
    }

    /**
     * {@code executor} run through the run's tool gate. An injected failure is thrown as a
     * {@code ToolExecutionException} around it when {@code throwsFailures} (as AiServices' executors throw a
     * method's exception), else answered as an error result (as {@code new DefaultToolExecutor(object, method)}
     * answers one).
     */
    public static ToolExecutor executor(LoopRun run, ToolExecutor executor, boolean throwsFailures) {
        return GatedTools.executor(Objects.requireNonNull(run, "run"), executor, throwsFailures);
    }

    /**
     * A langchain4j-mcp transport to the run's MCP server {@code server} (docs mcp.md), layer
     * {@code langchain4j-mcp}: every message the client sends is answered from the server's MCP cassettes and meets the
     * scenario's MCP faults on the run's virtual clock, delivered as langchain4j-mcp's Streamable HTTP transport
     * delivers a real server's answers. It assumes langchain4j-mcp's default timeouts (tool execution 60 s); build the
     * client with {@link #mcpClient(LoopRun, String, Consumer)} for the adapter to know yours.
     *
     * @throws IllegalArgumentException when the configuration declares no MCP server {@code server}
     */
    public static McpTransport mcpTransport(LoopRun run, String server) {
        return McpClients.transport(Objects.requireNonNull(run, "run"), Objects.requireNonNull(server, "server"));
    }

    /** A langchain4j-mcp {@code DefaultMcpClient} with its defaults on the run's MCP server {@code server}. */
    public static DefaultMcpClient mcpClient(LoopRun run, String server) {
        return mcpClient(run, server, builder -> { });
    }

    /**
     * A real langchain4j-mcp {@code DefaultMcpClient} on the run's MCP server {@code server}, made by its own builder
     * after {@code customizer} has set on it what your production code sets ({@code toolExecutionTimeout},
     * {@code listeners}, {@code cacheToolList}, ...). The builder keeps its transport (the run's server) and has its
     * auto health check off unless the customizer turns it on, since that check pings on the wall clock. When no answer
     * comes before {@code toolExecutionTimeout}, the client hands your loop the text {@code There was a timeout
     * executing the tool} as the tool's result, at once, and the run's trace and report say so.
     *
     * @throws IllegalArgumentException when the configuration declares no MCP server {@code server}
     */
    public static DefaultMcpClient mcpClient(LoopRun run, String server,
            Consumer<? super DefaultMcpClient.Builder> customizer) {
        return McpClients.client(Objects.requireNonNull(run, "run"), Objects.requireNonNull(server, "server"),
                Objects.requireNonNull(customizer, "customizer"));
    }

    /** The HTTP client a model that never retries gets: the run's endpoint. */
    private static HarnessHttpClientBuilder singleAttemptClient(LoopRun run) {
        return new HarnessHttpClientBuilder(run.http(), new SdkRetries(), run::waited);
    }
}
