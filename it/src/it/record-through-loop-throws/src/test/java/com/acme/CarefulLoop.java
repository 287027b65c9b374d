package com.acme;

import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Sends its own requests for plan and refund, then mistakes the refund's answer for text. */
public class CarefulLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        send(run, "plan", "plan the refund");
        Object refund = send(run, "refund", "refund order 42");
        return List.of(Outcome.ok("plan", null, 1), Outcome.ok("refund", null, ((String) refund).length()));
    }

    private static HttpAnswer send(LoopRun run, String op, String prompt) {
        byte[] body = ("{\"model\":\"m-1\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}")
                .getBytes(StandardCharsets.UTF_8);
        try (var scope = run.op(op)) {
            return run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST", "chat/completions", Map.of(), body,
                    null, 0));
        }
    }
}
