package dev.resilienceharness.brokenloops;

import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Sends one SDK request for op {@code plan}, then one for op {@code act}, whose answer it casts to the wrong type: a
 * loop that throws while it is being recorded, after one cassette was written.
 */
public final class CastsTheAnswerLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        send(run, "plan", "plan the fix");
        HttpAnswer answer = send(run, "act", "apply the fix");
        Object parsed = answer;
        return List.of(Outcome.ok("plan", null, 1), Outcome.ok("act", null, ((String) parsed).length()));
    }

    private static HttpAnswer send(LoopRun run, String op, String prompt) {
        byte[] body = ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}")
                .getBytes(StandardCharsets.UTF_8);
        try (var scope = run.op(op)) {
            return run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST", "/v1/chat/completions", Map.of(),
                    body, null, 0));
        }
    }
}
