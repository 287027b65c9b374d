package dev.resilienceharness.clients.openai;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.resilienceharness.clients.tck.OrderTurn;
import dev.resilienceharness.clients.tck.ToolTurnContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * A turn of three model rounds inside one op, written by hand with openai-java: chat completions with {@code tools},
 * each tool call run and its result sent back as a {@code tool} message until the model answers (it asks for the
 * order, then for the parcel, then answers), under {@code policy.max_rounds}. Recorded through the adapter against a
 * provider on 127.0.0.1, replayed offline.
 */
class FunctionCallingTurnTest extends ToolTurnContract<FunctionCallingTurnTest.TurnLoop> {

    private static FunctionDefinition function(String name, String description, String parameter) {
        return FunctionDefinition.builder().name(name).description(description)
                .parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties",
                                JsonValue.from(Map.of(parameter, Map.of("type", "string"))))
                        .putAdditionalProperty("required", JsonValue.from(List.of(parameter)))
                        .build())
                .build();
    }

    /** The loop: one op, a function-calling loop inside it that runs until the model stops asking for tools. */
    record TurnLoop(OrderTurn.Tools tools) implements AgentLoop {

        @Override
        public List<Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            OpenAIClient client = HarnessOpenAi.client(run);
            try (var scope = run.op("resolve")) {
                ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder()
                        .model("gpt-4o-mini")
                        .addUserMessage("Where is order A-1042?")
                        .addFunctionTool(function("lookupOrder", "Look up an order by its id", "orderId"))
                        .addFunctionTool(function("trackParcel", "Track a parcel by its number", "parcel"));
                while (true) {
                    ChatCompletionMessage message = client.chat().completions().create(params.build()).choices().get(0)
                            .message();
                    List<ChatCompletionMessageToolCall> calls = message.toolCalls().orElse(List.of());
                    if (calls.isEmpty()) {
                        ObjectNode value = Json.mapper().createObjectNode().put("text", message.content().orElse(""));
                        return List.of(Outcome.ok("resolve", value, 1));
                    }
                    params.addMessage(message);
                    for (ChatCompletionMessageToolCall call : calls) {
                        ChatCompletionMessageFunctionToolCall f = call.asFunction();
                        params.addMessage(ChatCompletionToolMessageParam.builder().toolCallId(f.id())
                                .content(tools.run(f.function().name(), Json.readTree(f.function().arguments()))).build());
                    }
                }
            }
        }
    }

    FunctionCallingTurnTest() {
        super(ApiShape.CHAT_COMPLETIONS, TurnLoop::new);
    }
}
