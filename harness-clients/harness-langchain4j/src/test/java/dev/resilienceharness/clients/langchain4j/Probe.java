package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.http.client.HttpMethod;
import dev.langchain4j.http.client.HttpRequest;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a piece of code inside one scenario run of a {@link Project}, as a loop would, for tests of the adapter's
 * parts: the code gets the run's {@link LoopRun}, and the op {@code plan} is answered {@code ok}.
 */
final class Probe {

    static final String SCENARIOS = """
              - name: calm
                ops: [plan]
              - name: quota
                ops: [plan]
                faults: [quota]
              - name: timeout
                ops: [plan]
                faults: [timeout]
              - name: crash
                ops: [plan]
                faults: [crash]
              - name: slow
                ops: [plan]
                faults: [{slow_first_token: {elapsed_ms: 3500}}]
            """;

    /** The body langchain4j sends for op {@code plan}, as it prints it. */
    static final String PLAN_BODY = """
            {
              "model" : "gpt-4o-mini",
              "messages" : [ {
                "role" : "user",
                "content" : "plan the fix"
              } ],
              "stream" : false
            }""";

    private Probe() {
    }

    static HttpRequest plan(String body) {
        return HttpRequest.builder()
                .method(HttpMethod.POST)
                .url(HarnessLangChain4j.BASE_URL + "/chat/completions")
                .addHeader("Content-Type", "application/json")
                .addHeader("Authorization", "Bearer " + HarnessLangChain4j.API_KEY)
                .body(body)
                .build();
    }

    /** Runs {@code code} in one run of {@code scenario}, once (a crash restarts it: it runs again). */
    static ScenarioResult run(Path dir, String scenario, Consumer<LoopRun> code) throws Exception {
        Project project = new Project(dir, "{max_total_wait: 30s}", SCENARIOS);
        Rehearsal rehearsal = project.rehearsal(() -> run -> {
            try (var op = run.op("plan")) {
                code.accept(run);
            }
            return List.of(Outcome.ok("plan", null, 1));
        });
        return project.check(rehearsal, scenario);
    }
}
