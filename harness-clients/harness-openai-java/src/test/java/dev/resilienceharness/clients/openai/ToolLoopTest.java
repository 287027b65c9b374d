package dev.resilienceharness.clients.openai;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.resilienceharness.clients.tck.RefundTool;
import dev.resilienceharness.clients.tck.ToolLoopContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A team's hand-written function-calling loop on openai-java executes the model's tool calls through
 * {@code run.tool(...)}: each execution meets the scenario's {@code tool_faults:} and is on the trace as the loop's.
 * Recorded against a provider on 127.0.0.1, replayed offline.
 */
class ToolLoopTest extends ToolLoopContract<ToolLoopTest.RefundLoop> {

    /** The team's loop: the model asks for refunds, the loop runs each through run.tool and sends back its result. */
    record RefundLoop(RefundTool refund) implements AgentLoop {

        static final ChatCompletionFunctionTool REFUND = ChatCompletionFunctionTool.builder()
                .function(FunctionDefinition.builder().name("refund").description("Refund an order")
                        .parameters(FunctionParameters.builder()
                                .putAdditionalProperty("type", JsonValue.from("object"))
                                .putAdditionalProperty("properties", JsonValue.from(Map.of(
                                        "order", Map.of("type", "string"))))
                                .build())
                        .build())
                .build();

        @Override
        public List<Outcome> run(LoopRun run) {
            refund.reset();
            OpenAIClient client = HarnessOpenAi.client(run);
            ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder().model("gpt-5-mini")
                    .addUserMessage("Refund order A1").addTool(REFUND);
            try (var scope = run.op("resolve")) {
                while (true) {
                    ChatCompletionMessage message = client.chat().completions().create(params.build()).choices()
                            .get(0).message();
                    params.addMessage(message);
                    List<ChatCompletionMessageToolCall> calls = message.toolCalls().orElse(List.of());
                    if (calls.isEmpty()) {
                        return List.of(Outcome.ok("resolve", JsonNodeFactory.instance.objectNode()
                                .put("text", message.content().orElse("")), 1));
                    }
                    for (ChatCompletionMessageToolCall c : calls) {
                        ChatCompletionMessageFunctionToolCall f = c.asFunction();
                        params.addMessage(ChatCompletionToolMessageParam.builder().toolCallId(f.id())
                                .content(refund.execute(run, f.function().name(), f.function().arguments())).build());
                    }
                }
            }
        }
    }

    ToolLoopTest() {
        super(ApiShape.CHAT_COMPLETIONS, RefundLoop::new);
    }
}
