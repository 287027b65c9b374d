package dev.resilienceharness.clients.springai;

import dev.resilienceharness.clients.tck.OrderTurn;
import dev.resilienceharness.clients.tck.ToolTurnContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import java.util.List;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.annotation.Tool;
import tools.jackson.databind.node.ObjectNode;

/**
 * A turn of three model rounds inside one op: Spring AI's {@link ChatClient} runs two {@code @Tool} methods itself
 * (the model asks for the order, then for the parcel, then answers), with no decorator counting its calls, under
 * {@code policy.max_rounds}. Recorded through the adapter against a provider on 127.0.0.1, replayed offline.
 */
class ToolTurnThroughSpringAiTest extends ToolTurnContract<ToolTurnThroughSpringAiTest.TurnLoop> {

    /** The team's tools, which the chat client calls when the model asks for them. */
    public record OrderTools(OrderTurn.Tools turn) {

        @Tool(description = "Look up an order by its id")
        public String lookupOrder(String orderId) {
            return turn.lookupOrder(orderId);
        }

        @Tool(description = "Track a parcel by its number")
        public String trackParcel(String parcel) {
            return turn.trackParcel(parcel);
        }
    }

    /** The loop: one op, one {@code ChatClient} call; the rounds happen inside Spring AI. */
    record TurnLoop(OrderTurn.Tools turn) implements AgentLoop {

        @Override
        public List<Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            try (var scope = run.op("resolve")) {
                String answer = ChatClient.create(HarnessSpringAi.chatModel(run)).prompt()
                        .user("Where is order A-1042?")
                        .tools(new OrderTools(turn))
                        .call()
                        .content();
                ObjectNode value = Json.mapper().createObjectNode().put("text", answer);
                return List.of(Outcome.ok("resolve", value, 1));
            }
        }
    }

    ToolTurnThroughSpringAiTest() {
        super(ApiShape.CHAT_COMPLETIONS, TurnLoop::new);
    }
}
