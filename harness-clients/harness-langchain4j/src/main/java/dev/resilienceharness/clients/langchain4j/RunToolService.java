package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolService;
import dev.langchain4j.service.tool.ToolServiceContext;
import dev.resilienceharness.loop.LoopRun;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * AiServices' own tool service, every tool of an invocation ({@code @Tool} objects, tool maps, tool providers)
 * executed through the run's tool gate; everything else (error handlers, concurrency, limits) stays langchain4j's.
 * The tools of a langchain4j-mcp {@code McpToolProvider} are not gated here: their requests reach the run's MCP
 * server, which judges each execution once, where the server would run it.
 */
final class RunToolService extends ToolService {

    private final LoopRun run;

    RunToolService(LoopRun run) {
        this.run = run;
    }

    @Override
    public ToolServiceContext createContext(InvocationContext invocationContext, UserMessage userMessage,
            List<ChatMessage> messages) {
        ToolServiceContext context = super.createContext(invocationContext, userMessage, messages);
        if (context.toolExecutors() == null || context.toolExecutors().isEmpty()) {
            return context;
        }
        boolean mcpProvided = providedByMcpOnly();
        Map<String, ToolExecutor> gated = new LinkedHashMap<>();
        context.toolExecutors().forEach((name, executor) -> gated.put(name,
                executor instanceof RunToolExecutor || isMcp(executor)
                        || (mcpProvided && !toolExecutors().containsKey(name))
                        ? executor : new RunToolExecutor(run, executor, true)));
        return context.toBuilder().toolExecutors(gated).build();
    }

    /** Whether every tool provider is an {@code McpToolProvider}, whose executors a {@code toolWrapper} may hide. */
    private boolean providedByMcpOnly() {
        java.util.Set<dev.langchain4j.service.tool.ToolProvider> providers = new java.util.HashSet<>(toolProviders());
        if (toolProvider() != null) {
            providers.add(toolProvider());
        }
        return !providers.isEmpty() && providers.stream().allMatch(p -> MCP_PROVIDER.equals(p.getClass().getName()));
    }

    // By name: langchain4j-mcp is optional beside this adapter.
    private static final String MCP_PROVIDER = "dev.langchain4j.mcp.McpToolProvider";
    private static final String MCP_EXECUTOR = "dev.langchain4j.mcp.McpToolExecutor";

    private static boolean isMcp(ToolExecutor executor) {
        return MCP_EXECUTOR.equals(executor.getClass().getName());
    }
}
