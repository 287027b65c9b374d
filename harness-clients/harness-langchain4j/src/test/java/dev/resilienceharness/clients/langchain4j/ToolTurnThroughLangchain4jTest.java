package dev.resilienceharness.clients.langchain4j;

import dev.resilienceharness.clients.tck.OrderTurn;
import dev.resilienceharness.clients.tck.ToolTurnContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import java.util.List;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.service.AiServices;
import tools.jackson.databind.node.ObjectNode;

/**
 * A turn of three model rounds inside one op: langchain4j's {@link AiServices} runs two {@code @Tool} methods itself
 * (the model asks for the order, then for the parcel, then answers), with no decorator counting its calls, under
 * {@code policy.max_rounds}. Recorded through the adapter against a provider on 127.0.0.1, replayed offline.
 */
class ToolTurnThroughLangchain4jTest extends ToolTurnContract<ToolTurnThroughLangchain4jTest.TurnLoop> {

    /** The team's assistant, as AiServices implements it. */
    public interface Assistant {
        String chat(String message);
    }

    /** The team's tools, which AiServices calls when the model asks for them. */
    public record OrderTools(OrderTurn.Tools turn) {

        @Tool("Look up an order by its id")
        public String lookupOrder(String orderId) {
            return turn.lookupOrder(orderId);
        }

        @Tool("Track a parcel by its number")
        public String trackParcel(String parcel) {
            return turn.trackParcel(parcel);
        }
    }

    /** The loop: one op, one call of the assistant; the rounds happen inside langchain4j. */
    record TurnLoop(OrderTurn.Tools turn) implements AgentLoop {

        @Override
        public List<Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            try (var scope = run.op("resolve")) {
                Assistant assistant = AiServices.builder(Assistant.class)
                        .chatModel(HarnessLangChain4j.builder(run).modelName("gpt-4o-mini").maxRetries(0).build())
                        .tools(new OrderTools(turn))
                        .build();
                String answer = assistant.chat("Where is order A-1042?");
                ObjectNode value = Json.mapper().createObjectNode().put("text", answer);
                return List.of(Outcome.ok("resolve", value, 1));
            }
        }
    }

    ToolTurnThroughLangchain4jTest() {
        super(ApiShape.CHAT_COMPLETIONS, TurnLoop::new);
    }
}
