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
 * The tools of a langchain4j-mcp {@code McpToolProvider} go through the gate too: the run records each as its MCP
 * server's one {@code tools/call}, run by langchain4j over langchain4j-mcp (docs mcp.md).
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
        Map<String, ToolExecutor> gated = new LinkedHashMap<>();
        context.toolExecutors().forEach((name, executor) -> gated.put(name,
                executor instanceof RunToolExecutor ? executor : new RunToolExecutor(run, executor, true)));
        return context.toBuilder().toolExecutors(gated).build();
    }
}
