package com.example.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loop the README shows, named in {@code loop:} as a team names it, recorded through langchain4j and replayed. */
class PlanningLoopTest {

    private static final String YAML = """
            version: 1
            loop: com.example.agent.PlanningLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - name: calm
                ops: [plan, review]
                expect: {status: [ok, ok]}
              - name: quota
                ops: [plan, review]
                faults: [none, quota]
                expect: {status: [ok, stopped], retry_after: [null, null]}
              - name: server-errors
                ops: [plan, review]
                faults: [server_error, server_error, none]
                expect: {status: [ok, ok], attempts: [3, 1]}
              - name: crash
                ops: [plan, review]
                faults: [none, crash]
                expect: {status: [ok, ok]}
            """;

    @TempDir
    Path dir;

    @Test
    void theReadmeLoopRecordsThroughLangchain4jAndPassesItsScenarios() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        LoopFactory loops = LoopFactory.forName(config.loop(), getClass().getClassLoader());
        HttpServer provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        provider.createContext("/v1/chat/completions", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String text = request.contains("plan the fix") ? "reproduce, fix, test" : "looks good";
            byte[] body = ("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1767225600,"
                    + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                    + "\"content\":\"" + text + "\"},\"finish_reason\":\"stop\"}]}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        provider.start();
        try {
            LoopRecorder.prepare(config, loops).recordMissing(scenario(config, "calm"),
                    LiveHttp.to(URI.create("http://127.0.0.1:" + provider.getAddress().getPort() + "/v1"), "sk-live",
                            Duration.ofSeconds(10)), RecordingRedaction.forConfig(config));
        } finally {
            provider.stop(0);
        }

        Rehearsal replay = Rehearsal.prepare(config, loops);
        for (Scenario s : config.scenarios()) {
            ScenarioResult result = replay.check(s, 2, Rehearsal.RUN_INVARIANTS);
            assertEquals(List.of(), result.violations(), s.name());
        }
        ScenarioResult calm = replay.check(scenario(config, "calm"), 1, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(Status.OK, Status.OK), calm.trace().outcomes().stream().map(Outcome::status).toList());
        assertEquals("reproduce, fix, test", calm.trace().outcomes().get(0).value().asString());
    }

    private static Scenario scenario(HarnessConfig config, String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }
}
