package dev.resilienceharness.mcpclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.clients.springai.HarnessSpringAi;
import dev.resilienceharness.clients.tck.RehearsalProject;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.ToolRecord;
import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Path;
import tools.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/**
 * Spring AI's MCP client support (spring-ai-mcp 2.0.1, built on the MCP Java SDK 2.0.0) runs on this adapter's
 * client: {@code SyncMcpToolCallbackProvider} over it gives a {@code ChatClient} of {@code HarnessSpringAi} the
 * server's tools, and the tool the model asks for is called through the run's MCP server.
 */
class SpringAiMcpToolsTest {

    /** A model that asks for a tool (refund, unless named) for order B-2, then answers with what the tool returned. */
    private static final class RefundingModel implements ChatModel {
        final List<List<Message>> prompts = new ArrayList<>();
        final String tool;

        RefundingModel() {
            this("refund");
        }

        RefundingModel(String tool) {
            this.tool = tool;
        }

        @Override
        public ChatResponse call(Prompt prompt) {
            prompts.add(prompt.getInstructions());
            Message last = prompt.getInstructions().get(prompt.getInstructions().size() - 1);
            if (last instanceof ToolResponseMessage results) {
                return answer(AssistantMessage.builder().content("refunded: "
                        + results.getResponses().get(0).responseData()).build());
            }
            return answer(AssistantMessage.builder().content("").toolCalls(List.of(new AssistantMessage.ToolCall(
                    "call-1", "function", tool, "{\"order\":\"B-2\"}"))).build());
        }

        private static ChatResponse answer(AssistantMessage message) {
            return new ChatResponse(List.of(new Generation(message)));
        }

        // Spring AI reads from these options whether its ChatClient runs the tools itself.
        @Override
        public ChatOptions getDefaultOptions() {
            return ToolCallingChatOptions.builder().build();
        }

        @Override
        public ChatOptions getOptions() {
            return getDefaultOptions();
        }
    }

    @Test
    void aChatClientGetsTheServersToolsAndCallsThemThroughTheRun() {
        ScriptedRun scripted = new ScriptedRun();
        McpSyncClient billing = HarnessMcp.syncClient(scripted.run, "billing");
        billing.initialize();
        ToolCallback[] tools = SyncMcpToolCallbackProvider.builder().mcpClients(billing).build().getToolCallbacks();
        assertEquals(List.of("lookup_order", "refund"),
                Arrays.stream(tools).map(t -> t.getToolDefinition().name()).toList());

        RefundingModel model = new RefundingModel();
        ChatClient client = HarnessSpringAi.chatClientBuilder(scripted.run, model).build();
        String answer = client.prompt().user("Refund order B-2").toolCallbacks(tools).call().content();

        assertTrue(answer.startsWith("refunded: ") && answer.contains("done B-2"), answer);
        assertEquals(2, model.prompts.size());
        assertEquals(List.of("billing as MCP Java SDK"), scripted.asked);
        assertEquals(List.of("refund"), scripted.tools, "Spring AI ran the MCP tool through the run's tool gate");
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call"),
                scripted.billing.methods());
    }

    /** refund is declared a side-effecting tool of billing; lookup_order is not declared at all. */
    private static final String YAML = """
            version: 1
            policy: {max_total_wait: 120s}
            mcp_servers:
              billing: {transport: streamable_http, url: "http://127.0.0.1:8931/mcp"}
            tools:
              refund: {side_effects: true, server: billing}
            budget: {max_tool_calls_per_op: 1}
            scenarios:
              - {name: plain, ops: [resolve]}
            """;

    /**
     * Spring AI's tool gate (HarnessSpringAi) and the MCP runtime both see a tool Spring AI reaches over MCP: in a run
     * the harness makes, the execution is the server's one tools/call, counted once by side_effects and the budget,
     * whether the tool is declared with its server or not declared at all.
     */
    @ParameterizedTest
    @ValueSource(strings = {"refund", "lookup_order"})
    void anMcpToolSpringAiRunsIsOneExecutionOfItsServer(String tool, @TempDir Path dir) throws Exception {
        RehearsalProject project = RecordedBilling.project(dir, YAML);
        ScenarioResult result = project.replay("plain", () -> run -> {
            McpSyncClient billing = HarnessMcp.syncClient(run, "billing");
            billing.initialize();
            ToolCallback[] tools = SyncMcpToolCallbackProvider.builder().mcpClients(billing).build()
                    .getToolCallbacks();
            ChatClient client = HarnessSpringAi.chatClientBuilder(run, new RefundingModel(tool)).build();
            try (var scope = run.op("resolve")) {
                String answer = client.prompt().user("Refund order B-2").toolCallbacks(tools).call().content();
                return List.of(Outcome.ok("resolve", JsonNodeFactory.instance.stringNode(answer), 1));
            }
        }, 1, Rehearsal.runInvariants(project.config()));

        assertEquals(List.of(), result.violations(), result.violations().toString());
        List<ToolRecord> executions = result.trace().tools();
        assertEquals(1, executions.size(), executions.toString());
        assertEquals(tool, executions.get(0).name());
        assertEquals("billing", executions.get(0).server());
        assertEquals("Spring AI over " + HarnessMcp.LAYER, executions.get(0).layer());
        assertTrue(executions.get(0).committed());
    }
}
