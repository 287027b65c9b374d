package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.resilienceharness.clients.tck.ToolTurns;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A support agent as a team writes it with langchain4j: one {@code run.op("resolve")} in which an AiService with two
 * {@code @Tool} methods lets the model look an order up and refund it, langchain4j executing the tools. By default a
 * tool failure goes back to the model as langchain4j's default error handler sends it; a loop that retries blindly
 * configures a handler that throws, and sends the whole turn again once. Finished ops are journaled.
 */
public final class ToolLoop implements AgentLoop {

    static final String PROMPT = ToolTurns.PROMPT;
    static final String ANSWER = ToolTurns.ANSWER;

    /** The team's AiService. */
    interface Assistant {
        String chat(String message);
    }

    /** The team's tools, as langchain4j calls them. */
    public static final class OrderTools {

        final AtomicInteger refunds = new AtomicInteger();

        @Tool(name = "lookup_order", value = "Look an order up by its number")
        public String lookupOrder(String order) {
            return "order " + order + ": 1 kettle, delivered broken";
        }

        @Tool(name = "refund", value = "Refund an order, once per refund id")
        public Refund refund(String order, String refund_id) {
            refunds.incrementAndGet();
            return new Refund("refunded", refund_id);
        }
    }

    /** The refund tool's result. */
    public record Refund(String status, String refund_id) {
    }

    /** A tool failure the team's error handler throws out of the AiService. */
    static final class ToolFailed extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ToolFailed(Throwable cause) {
            super(cause);
        }
    }

    private final boolean retriesBlindly;
    /** What the tool's failures were, as the loop saw them, over every run. */
    final List<Throwable> thrown = Collections.synchronizedList(new ArrayList<>());
    /** The refunds the tool's own code made in the last process the loop ran (a check runs the scenario again). */
    final AtomicInteger refunds = new AtomicInteger();

    /** The loop whose tool failures go back to the model. */
    public ToolLoop() {
        this(false);
    }

    ToolLoop(boolean retriesBlindly) {
        this.retriesBlindly = retriesBlindly;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> outcomes = new ArrayList<>(run.journal().completed());
        if (!outcomes.isEmpty()) {
            return outcomes;
        }
        ChatModel model = HarnessLangChain4j.builder(run).modelName("gpt-5-mini").maxRetries(0).build();
        OrderTools tools = new OrderTools();
        // In production: AiServices.builder(Assistant.class).
        AiServices<Assistant> builder = HarnessLangChain4j.aiServices(run, Assistant.class)
                .chatModel(model)
                .tools(tools);
        if (retriesBlindly) {
            builder.toolExecutionErrorHandler((error, context) -> {
                throw new ToolFailed(error);
            });
        }
        Assistant assistant = builder.build();
        Outcome outcome;
        try (var scope = run.op("resolve")) {
            outcome = resolve(assistant);
        } finally {
            refunds.set(tools.refunds.get());
        }
        run.journal().record(outcome);
        outcomes.add(outcome);
        return outcomes;
    }

    private Outcome resolve(Assistant assistant) {
        int attempts = 0;
        while (true) {
            attempts++;
            try {
                String text = assistant.chat(PROMPT);
                return Outcome.ok("resolve", JsonNodeFactory.instance.objectNode().put("text", text), attempts);
            } catch (ToolFailed e) {
                thrown.add(e.getCause());
                if (attempts > 1) {
                    return Outcome.degraded("resolve", "tool", attempts);
                }
            }
        }
    }

}
