package com.example.agent;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The loop most teams start with: a retry wrapper and an optimistic assumption. It retries every failure five
 * times a second apart -- quota rejections included -- and keeps no journal, so a restart repeats finished work.
 */
public final class RetryEverythingLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            for (int attempt = 1; ; attempt++) {
                try {
                    Reply reply = run.transport().call(run.request(op));
                    outcomes.add(Outcome.ok(op, reply.body(), attempt));
                    break;
                } catch (CallFailure e) {
                    if (attempt == 5) {
                        outcomes.add(Outcome.degraded(op, "timeout", attempt));
                        break;
                    }
                    run.sleeper().sleep(Duration.ofSeconds(1));
                }
            }
        }
        return outcomes;
    }
}
