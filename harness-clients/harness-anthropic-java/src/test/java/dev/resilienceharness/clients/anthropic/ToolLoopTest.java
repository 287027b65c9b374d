package dev.resilienceharness.clients.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.ObjectMappers;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import dev.resilienceharness.clients.tck.RefundTool;
import dev.resilienceharness.clients.tck.ToolLoopContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A team's hand-written {@code tool_use} loop on anthropic-java executes the model's tool calls through
 * {@code run.tool(...)}: each execution meets the scenario's {@code tool_faults:} and is on the trace as the loop's.
 * Recorded against a provider on 127.0.0.1, replayed offline.
 */
class ToolLoopTest extends ToolLoopContract<ToolLoopTest.RefundLoop> {

    /** The team's loop: the model asks for refunds, the loop runs each through run.tool and sends back its result. */
    record RefundLoop(RefundTool refund) implements AgentLoop {

        static final Tool REFUND = Tool.builder().name("refund").description("Refund an order")
                .inputSchema(Tool.InputSchema.builder()
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("order", Map.of("type", "string"))))
                        .build())
                .build();

        @Override
        public List<Outcome> run(LoopRun run) {
            refund.reset();
            AnthropicClient client = HarnessAnthropic.client(run);
            MessageCreateParams.Builder params = MessageCreateParams.builder().model("claude-sonnet-4-5")
                    .maxTokens(1024).addUserMessage("Refund order A1").addTool(REFUND);
            try (var scope = run.op("resolve")) {
                while (true) {
                    Message message = client.messages().create(params.build());
                    params.addMessage(message);
                    List<ContentBlockParam> results = new ArrayList<>();
                    StringBuilder text = new StringBuilder();
                    for (ContentBlock block : message.content()) {
                        block.text().ifPresent(t -> text.append(t.text()));
                        if (block.isToolUse()) {
                            ToolUseBlock use = block.asToolUse();
                            results.add(ContentBlockParam.ofToolResult(ToolResultBlockParam.builder()
                                    .toolUseId(use.id()).content(refund.execute(run, use.name(), input(use))).build()));
                        }
                    }
                    if (results.isEmpty()) {
                        return List.of(Outcome.ok("resolve", JsonNodeFactory.instance.objectNode()
                                .put("text", text.toString()), 1));
                    }
                    params.addUserMessageOfContentBlockParams(results);
                }
            }
        }

        private static String input(ToolUseBlock use) {
            try {
                return ObjectMappers.jsonMapper().writeValueAsString(use._input());
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    ToolLoopTest() {
        super(ApiShape.MESSAGES, RefundLoop::new);
    }
}
