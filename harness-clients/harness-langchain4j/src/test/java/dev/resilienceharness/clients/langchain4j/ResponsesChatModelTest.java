package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.langchain4j.exception.RateLimitException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** langchain4j's {@code OpenAiResponsesChatModel} through the adapter: recorded through the team's loop, replayed. */
class ResponsesChatModelTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.langchain4j.TeamLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - name: calm
                ops: [plan, review]
                expect: {status: [ok, ok]}
              - name: quota-on-review
                ops: [plan, review]
                faults: [none, quota]
                expect: {status: [ok, stopped]}
            """;

    @TempDir
    Path dir;

    private final List<Throwable> seen = new ArrayList<>();

    private LoopFactory loop() {
        return () -> new TeamLoop(run -> HarnessLangChain4j.responsesBuilder(run).modelName("gpt-4.1-mini").build(),
                seen);
    }

    @Test
    void recordedThroughTheLoopAndReplayedWithAQuotaThatReachesTheLoopAtOnce() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        try (ProviderStub stub = new ProviderStub()) {
            LoopRecorder.prepare(config, loop()).recordMissing(scenario(config, "calm"),
                    LiveHttp.to(stub.baseUrl(), ProviderStub.KEY, Duration.ofSeconds(10)),
                    RecordingRedaction.forConfig(config));
            assertEquals(2, stub.received.size(), "one request per op");
        }
        List<JsonNode> cassettes = new ArrayList<>();
        try (var list = Files.list(config.cassettes())) {
            for (Path file : list.sorted().toList()) {
                cassettes.add(Json.readTree(Files.readAllBytes(file)));
            }
        }
        assertEquals(2, cassettes.size());
        for (JsonNode c : cassettes) {
            assertEquals("gpt-4.1-mini", c.at("/request/model").asString());
            assertFalse(c.get("request").path("stream").asBoolean(), "asked whole");
            assertEquals(ProviderStub.RESPONSES_TEXT, c.at("/response/output/0/content/0/text").asString());
            assertFalse(c.get("response").has("id"), "volatile response.id is stripped");
        }

        Rehearsal replay = Rehearsal.prepare(config, loop());
        ScenarioResult calm = replay.check(scenario(config, "calm"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), calm.violations());
        assertEquals(ProviderStub.RESPONSES_TEXT, calm.trace().outcomes().get(0).value().get("text").asString());

        seen.clear();
        ScenarioResult quota = replay.check(scenario(config, "quota-on-review"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), quota.violations());
        assertEquals(List.of(Status.OK, Status.STOPPED), quota.trace().outcomes().stream().map(Outcome::status)
                .toList());
        assertEquals(2, quota.trace().calls().size(), "one attempt each: the model does not retry the 429");
        assertEquals(List.of("langchain4j-open-ai 1.19.0", "langchain4j-open-ai 1.19.0"),
                quota.trace().calls().stream().map(CallRecord::sdk).toList());
        assertInstanceOf(RateLimitException.class, seen.get(0));
    }

    private static Scenario scenario(HarnessConfig config, String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }
}
