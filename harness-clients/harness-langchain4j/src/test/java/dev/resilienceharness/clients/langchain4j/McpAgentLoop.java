package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.mcp.McpToolProvider;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.List;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A support agent as a team writes it with langchain4j and langchain4j-mcp: an AiService whose tools come from an
 * {@code McpToolProvider} over the billing server's {@code DefaultMcpClient}, in one op {@code resolve}. A careful
 * agent stamps each tool call with an idempotency key, the model's tool call id, through the provider's
 * {@code toolWrapper}, so that a call the client sends twice is the same refund to the server; a blind one does not.
 */
public final class McpAgentLoop implements AgentLoop {

    static final String PROMPT = "Refund order A1, it arrived broken";
    static final String ANSWER = "Refunded order A1.";

    /** The team's AiService. */
    interface Assistant {
        String chat(String message);
    }

    private final boolean careful;

    McpAgentLoop(boolean careful) {
        this.careful = careful;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        try (DefaultMcpClient billing = HarnessLangChain4j.mcpClient(run, "billing")) {
            McpToolProvider.Builder tools = McpToolProvider.builder().mcpClients(billing);
            if (careful) {
                tools.toolWrapper(McpAgentLoop::withIdempotencyKey);
            }
            Assistant assistant = HarnessLangChain4j.aiServices(run, Assistant.class)
                    .chatModel(HarnessLangChain4j.builder(run).modelName("gpt-5-mini").maxRetries(0).build())
                    .toolProvider(tools.build())
                    .build();
            try (var scope = run.op("resolve")) {
                String answer = assistant.chat(PROMPT);
                return List.of(Outcome.ok("resolve", JsonNodeFactory.instance.stringNode(answer), 1));
            }
        }
    }

    /** The model's tool call id as the call's idempotency key, which the server honours. */
    private static ToolExecutor withIdempotencyKey(ToolExecutor tool) {
        return new ToolExecutor() {
            @Override
            public String execute(ToolExecutionRequest request, Object memoryId) {
                return tool.execute(keyed(request), memoryId);
            }

            @Override
            public ToolExecutionResult executeWithContext(ToolExecutionRequest request,
                    dev.langchain4j.invocation.InvocationContext context) {
                return tool.executeWithContext(keyed(request), context);
            }
        };
    }

    private static ToolExecutionRequest keyed(ToolExecutionRequest request) {
        String args = request.arguments() == null || request.arguments().isBlank() ? "{}" : request.arguments();
        String keyed = args.strip().equals("{}") ? "{\"idempotency_key\":\"" + request.id() + "\"}"
                : args.strip().substring(0, args.strip().length() - 1) + ",\"idempotency_key\":\"" + request.id()
                        + "\"}";
        return request.toBuilder().arguments(keyed).build();
    }
}
