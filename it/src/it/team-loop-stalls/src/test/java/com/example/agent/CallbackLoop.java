package com.example.agent;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

/**
 * PoliteLoop for two ops; with a review, a loop that hands each answer to a callback and joins it, as a loop on an
 * asynchronous SDK does. The review's callback is never called, as a handler is not when a stream breaks in a way the
 * SDK does not report, and join() waits for it without a bound.
 */
public final class CallbackLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        if (!run.ops().contains("review")) {
            return new PoliteLoop().run(run);
        }
        List<Outcome> out = new ArrayList<>();
        for (String op : run.ops()) {
            JsonNode body;
            try {
                body = run.transport().call(run.request(op)).body();
            } catch (CallFailure e) {
                out.add(Outcome.degraded(op, "error", 1));
                continue;
            }
            CompletableFuture<JsonNode> callback = new CompletableFuture<>();
            if (!op.equals("review")) {
                callback.complete(body);
            }
            out.add(Outcome.ok(op, callback.join(), 1));
        }
        return out;
    }
}
