package dev.resilienceharness.clients.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.TextBlock;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import dev.resilienceharness.clients.tck.OrderTurn;
import dev.resilienceharness.clients.tck.ToolTurnContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A turn of three model rounds inside one op, written by hand with anthropic-java: messages with {@code tools}, each
 * {@code tool_use} run and its {@code tool_result} sent back until the model answers (it asks for the order, then for
 * the parcel, then answers), under {@code policy.max_rounds}. Recorded through the adapter against a provider on
 * 127.0.0.1, replayed offline.
 */
class ToolUseTurnTest extends ToolTurnContract<ToolUseTurnTest.TurnLoop> {

    private static Tool tool(String name, String description, String parameter) {
        return Tool.builder().name(name).description(description)
                .inputSchema(Tool.InputSchema.builder()
                        .properties(Tool.InputSchema.Properties.builder()
                                .putAdditionalProperty(parameter, JsonValue.from(Map.of("type", "string"))).build())
                        .required(List.of(parameter))
                        .build())
                .build();
    }

    /** The loop: one op, a tool-use loop inside it that runs until the model stops asking for tools. */
    record TurnLoop(OrderTurn.Tools tools) implements AgentLoop {

        @Override
        public List<Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            AnthropicClient client = HarnessAnthropic.client(run);
            try (var scope = run.op("resolve")) {
                MessageCreateParams.Builder params = MessageCreateParams.builder()
                        .model("claude-sonnet-4-5")
                        .maxTokens(1024)
                        .addUserMessage("Where is order A-1042?")
                        .addTool(tool("lookupOrder", "Look up an order by its id", "orderId"))
                        .addTool(tool("trackParcel", "Track a parcel by its number", "parcel"));
                while (true) {
                    Message message = client.messages().create(params.build());
                    List<ToolUseBlock> uses = message.content().stream().flatMap(b -> b.toolUse().stream()).toList();
                    if (uses.isEmpty()) {
                        String text = message.content().stream().flatMap(b -> b.text().stream())
                                .map(TextBlock::text).reduce("", String::concat);
                        ObjectNode value = Json.mapper().createObjectNode().put("text", text);
                        return List.of(Outcome.ok("resolve", value, 1));
                    }
                    params.addMessage(message);
                    List<ContentBlockParam> results = new ArrayList<>();
                    for (ToolUseBlock use : uses) {
                        JsonNode input = Json.mapper().valueToTree(use._input().convert(Map.class));
                        results.add(ContentBlockParam.ofToolResult(ToolResultBlockParam.builder().toolUseId(use.id())
                                .content(tools.run(use.name(), input)).build()));
                    }
                    params.addUserMessageOfContentBlockParams(results);
                }
            }
        }
    }

    ToolUseTurnTest() {
        super(ApiShape.MESSAGES, TurnLoop::new);
    }
}
