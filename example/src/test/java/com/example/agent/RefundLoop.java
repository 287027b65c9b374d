package com.example.agent;

import dev.resilienceharness.clients.openai.HarnessOpenAi;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.tool.ToolCall;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The refund agent's loop, rehearsed by {@code tools.yaml}: one op per support turn, however many model rounds it
 * takes, with every tool execution going through {@code run.tool}. A refund that times out may still have gone
 * through ({@code timeout_after_commit}): this loop asks billing for its receipt before running it again.
 */
public class RefundLoop implements AgentLoop {

    private static final Map<String, String> TICKETS = Map.of(
            "resolve", "T-1042: charged twice (2 x 12.50 EUR) for order 7781; please refund the second charge.");

    @Override
    public List<Outcome> run(LoopRun run) {
        Billing billing = new Billing();
        RefundAgent agent = new RefundAgent(HarnessOpenAi.builder(run).maxRetries(0).build(), billing);
        Map<String, Outcome> finished = new HashMap<>();
        for (Outcome o : run.journal().completed()) {
            finished.put(o.op(), o);
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            Outcome outcome = finished.get(op);
            if (outcome == null) {
                try (var scope = run.op(op)) {                // every round and tool of the turn counts for this op
                    String reply = agent.resolve(TICKETS.get(op), (name, arguments, body) ->
                            runTool(run, agent, name, arguments, body));
                    outcome = Outcome.ok(op, JsonNodeFactory.instance.stringNode(reply), 1);
                } catch (Exception e) {
                    outcome = Outcome.degraded(op, "tool", 1);
                }
                run.journal().record(outcome);
            }
            outcomes.add(outcome);
        }
        return outcomes;
    }

    /** Runs one tool through the harness; after a timeout, runs it again only if it did not go through. */
    protected String runTool(LoopRun run, RefundAgent agent, String name, String arguments, RefundAgent.Body body)
            throws Exception {
        try {
            return run.tool(ToolCall.of(name, arguments), body::run);
        } catch (SocketTimeoutException e) {
            // It may have gone through before the timeout: hand the model its receipt rather than refund again.
            var receipt = agent.receipt(arguments);
            return receipt.isPresent() ? receipt.get() : run.tool(ToolCall.of(name, arguments), body::run);
        }
    }

    /** The same loop, retrying a timed-out tool blindly: after timeout_after_commit it refunds twice. */
    public static final class Blind extends RefundLoop {
        @Override
        protected String runTool(LoopRun run, RefundAgent agent, String name, String arguments, RefundAgent.Body body)
                throws Exception {
            try {
                return run.tool(ToolCall.of(name, arguments), body::run);
            } catch (SocketTimeoutException e) {
                return run.tool(ToolCall.of(name, arguments), body::run);
            }
        }
    }
}
