package dev.resilienceharness.clients.springai;

import dev.resilienceharness.clients.tck.ToolTurns;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.execution.ToolExecutionException;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A support agent as a team writes it with Spring AI: one {@code run.op("resolve")} in which a {@link ChatClient}
 * with two {@code @Tool} methods lets the model look an order up and refund it, Spring AI executing the tools. A
 * tool failure Spring AI throws ends the op degraded, or, for a loop that retries blindly, sends the turn again once.
 * Finished ops are journaled so that a restart resumes.
 */
public final class ToolLoop implements AgentLoop {

    static final String PROMPT = ToolTurns.PROMPT;
    static final String ANSWER = ToolTurns.ANSWER;

    /** What the model reached in the team's code: its tools, as Spring AI calls them. */
    public static final class OrderTools {

        final AtomicInteger refunds = new AtomicInteger();

        @Tool(name = "lookup_order", description = "Look an order up by its number")
        public String lookupOrder(String order) {
            return "order " + order + ": 1 kettle, delivered broken";
        }

        @Tool(name = "refund", description = "Refund an order, once per refund id")
        public Refund refund(String order, String refund_id) {
            refunds.incrementAndGet();
            return new Refund("refunded", refund_id);
        }
    }

    /** The refund tool's result. */
    public record Refund(String status, String refund_id) {
    }

    private final Function<LoopRun, ChatClient> clients;
    private final boolean retriesBlindly;
    private boolean streams;
    /** What Spring AI threw to the loop, over every run and process. */
    final List<RuntimeException> thrown = Collections.synchronizedList(new ArrayList<>());
    /** The refunds the tool's own code made in the last process the loop ran (a check runs the scenario again). */
    final AtomicInteger refunds = new AtomicInteger();

    /** The loop on a chat client with Spring AI's defaults. */
    public ToolLoop() {
        this(false);
    }

    /** @param retriesBlindly whether a tool failure Spring AI throws sends the whole turn again, once */
    ToolLoop(boolean retriesBlindly) {
        // In production: ChatClient.builder(chatModel).build().
        this(run -> HarnessSpringAi.chatClientBuilder(run, HarnessSpringAi.chatModel(run)).build(), retriesBlindly);
    }

    ToolLoop(Function<LoopRun, ChatClient> clients, boolean retriesBlindly) {
        this.clients = clients;
        this.retriesBlindly = retriesBlindly;
    }

    /** This loop, streaming each turn ({@code stream().content()}) rather than calling. */
    ToolLoop streaming() {
        streams = true;
        return this;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> outcomes = new ArrayList<>(run.journal().completed());
        if (!outcomes.isEmpty()) {
            return outcomes;
        }
        ChatClient client = clients.apply(run);
        OrderTools tools = new OrderTools();
        Outcome outcome;
        try (var scope = run.op("resolve")) {
            outcome = resolve(client, tools);
        } finally {
            refunds.set(tools.refunds.get());
        }
        run.journal().record(outcome);
        outcomes.add(outcome);
        return outcomes;
    }

    private Outcome resolve(ChatClient client, OrderTools tools) {
        int attempts = 0;
        while (true) {
            attempts++;
            try {
                String text = streams
                        ? String.join("", client.prompt().user(PROMPT).tools(tools).stream().content().collectList()
                                .block())
                        : client.prompt().user(PROMPT).tools(tools).call().content();
                return Outcome.ok("resolve", JsonNodeFactory.instance.objectNode().put("text", text), attempts);
            } catch (ToolExecutionException e) {
                thrown.add(e);
                if (!retriesBlindly || attempts > 1) {
                    return Outcome.degraded("resolve", "tool", attempts);
                }
            }
        }
    }
}
