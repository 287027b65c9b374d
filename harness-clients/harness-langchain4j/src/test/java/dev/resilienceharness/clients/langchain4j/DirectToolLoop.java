package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A team's own tool loop on langchain4j without AiServices: it sends the tools' specifications, executes each tool
 * request with the tool's {@link ToolExecutor} and sends the results back, until the model answers in text.
 */
public final class DirectToolLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        ChatModel model = HarnessLangChain4j.builder(run).modelName("gpt-5-mini").maxRetries(0).build();
        // In production: each @Tool method's new DefaultToolExecutor(tools, method), by its specification.
        Map<ToolSpecification, ToolExecutor> tools = HarnessLangChain4j.tools(run, new ToolLoop.OrderTools());
        List<ChatMessage> messages = new ArrayList<>(List.of(UserMessage.from(ToolLoop.PROMPT)));
        try (var scope = run.op("resolve")) {
            while (true) {
                AiMessage answer = model.chat(ChatRequest.builder().messages(messages)
                        .toolSpecifications(new ArrayList<>(tools.keySet())).build()).aiMessage();
                messages.add(answer);
                if (!answer.hasToolExecutionRequests()) {
                    return List.of(Outcome.ok("resolve",
                            JsonNodeFactory.instance.objectNode().put("text", answer.text()), 1));
                }
                for (ToolExecutionRequest request : answer.toolExecutionRequests()) {
                    ToolExecutor executor = tools.entrySet().stream()
                            .filter(e -> e.getKey().name().equals(request.name())).findFirst().orElseThrow()
                            .getValue();
                    messages.add(ToolExecutionResultMessage.from(request, executor.execute(request, "default")));
                }
            }
        }
    }
}
