package dev.resilienceharness.mcpclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.clients.springai.HarnessSpringAi;
import io.modelcontextprotocol.client.McpSyncClient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
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

    /** A model that asks for refund of B-2, then answers with what the tool returned. */
    private static final class RefundingModel implements ChatModel {
        final List<List<Message>> prompts = new ArrayList<>();

        @Override
        public ChatResponse call(Prompt prompt) {
            prompts.add(prompt.getInstructions());
            Message last = prompt.getInstructions().get(prompt.getInstructions().size() - 1);
            if (last instanceof ToolResponseMessage results) {
                return answer(AssistantMessage.builder().content("refunded: "
                        + results.getResponses().get(0).responseData()).build());
            }
            return answer(AssistantMessage.builder().content("").toolCalls(List.of(new AssistantMessage.ToolCall(
                    "call-1", "function", "refund", "{\"order\":\"B-2\"}"))).build());
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
}
