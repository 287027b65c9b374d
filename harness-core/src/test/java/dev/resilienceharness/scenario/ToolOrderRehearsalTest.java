package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.testing.ToolOrders;
import dev.resilienceharness.testing.ToolOrders.Shape;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A framework that lists its tools in reflection order sends them in another order from one JVM to the next: the
 * scenario run answers every order from the one recording, through its HTTP endpoint (the SDK adapters') and its
 * {@code Transport} (a team's loop), and looks for other orders only when the exact fingerprint finds nothing.
 */
class ToolOrderRehearsalTest {

    private static final String SDK_YAML = """
            version: 1
            loop: com.acme.SdkLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - {name: quiet, ops: [plan], faults: []}
            """;

    @TempDir
    Path dir;

    private static String prompt(Shape shape, int n) {
        return "ask " + shape + " with " + n;
    }

    /** A project whose op {@code plan} has a labelled recording per shape and number of tools, 1 to 5. */
    private HarnessConfig sdkProject() throws Exception {
        HarnessConfig config = TestProject.create(dir, SDK_YAML);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        for (Shape shape : Shape.values()) {
            for (int n = 1; n <= ToolOrders.MAX_TOOLS; n++) {
                store.write(shape.request(prompt(shape, n), shape.tools(n)), shape.answer(shape + " " + n), null,
                        "plan");
            }
        }
        return config;
    }

    private static HttpAttempt attempt(Shape shape, ObjectNode body) {
        return new HttpAttempt("acme-sdk 1.0", "POST", shape.path(), Map.of(),
                Json.compact(body).getBytes(StandardCharsets.UTF_8), null, 0);
    }

    private static long cassettes(HarnessConfig config) throws Exception {
        try (var files = Files.list(config.cassettes())) {
            return files.count();
        }
    }

    @Test
    void everyOrderOfTheToolsReplaysThroughTheRunsHttpEndpointInEachShape() throws Exception {
        HarnessConfig config = sdkProject();
        List<String> expected = new ArrayList<>();
        List<String> answered = new ArrayList<>();
        AgentLoop loop = run -> {
            try (var scope = run.op("plan")) {
                for (Shape shape : Shape.values()) {
                    for (int n = 1; n <= ToolOrders.MAX_TOOLS; n++) {
                        for (List<ObjectNode> order : ToolOrders.permutations(shape.tools(n))) {
                            expected.add(shape + " " + n + " " + order);
                            HttpAnswer.Response r = (HttpAnswer.Response) run.http().exchange(attempt(shape,
                                    shape.request(prompt(shape, n), order)));
                            answered.add(r.status() + " " + shape.text(Json.readTree(r.body())) + " " + order);
                        }
                    }
                }
            }
            return List.of(Outcome.ok("plan", null, 1));
        };
        Rehearsal rehearsal = Rehearsal.prepare(config, () -> loop);
        RunTrace trace = rehearsal.run(scenario(config, "quiet"), null);

        assertNull(trace.failure());
        assertEquals(Shape.values().length * (1 + 2 + 6 + 24 + 120), answered.size());
        assertEquals(expected.stream().map(e -> "200 " + e).toList(), answered,
                "every order is answered from the recording of its shape and number of tools");
        assertEquals(answered.size(), trace.calls().size());
        assertTrue(trace.calls().stream().allMatch(c -> c.result() == CallRecord.Result.OK && c.op().equals("plan")));
        assertEquals(Shape.values().length * ToolOrders.MAX_TOOLS, cassettes(config), "replay writes nothing");
        assertTrue(rehearsal.lookup().toolOrderIndexed());
    }

    @Test
    void aRequestMadeOutsideAScopeIsAttributedByTheLabelOfItsRecordingInAnyOrder() throws Exception {
        HarnessConfig config = sdkProject();
        Shape shape = Shape.RESPONSES;
        List<ObjectNode> reversed = new ArrayList<>(shape.tools(5));
        java.util.Collections.reverse(reversed);
        AgentLoop unscoped = run -> {
            HttpAnswer.Response r = (HttpAnswer.Response) run.http().exchange(attempt(shape,
                    shape.request(prompt(shape, 5), reversed)));
            return List.of(Outcome.ok("plan", Json.readTree(r.body()), 1));
        };
        RunTrace trace = Rehearsal.prepare(config, () -> unscoped).run(scenario(config, "quiet"), null);
        assertNull(trace.failure());
        assertEquals("plan", trace.calls().get(0).op());
        assertEquals(shape + " 5", shape.text(trace.outcomes().get(0).value()));
    }

    @Test
    void aRequestThatAlsoDiffersInItsMessageIsStillAMissNamingTheNearestRecording() throws Exception {
        HarnessConfig config = sdkProject();
        Shape shape = Shape.CHAT_COMPLETIONS;
        List<ObjectNode> reversed = new ArrayList<>(shape.tools(3));
        java.util.Collections.reverse(reversed);
        ObjectNode changed = shape.request(prompt(shape, 3) + " again", reversed);
        AgentLoop loop = run -> {
            try (var scope = run.op("plan")) {
                run.http().exchange(attempt(shape, changed));
            }
            return List.of();
        };
        RunTrace trace = Rehearsal.prepare(config, () -> loop).run(scenario(config, "quiet"), null);

        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        assertEquals(RunTrace.Kind.CASSETTE, trace.failure().kind());
        String message = trace.failure().message();
        // The nearest recording by the paths where it differs, as a miss has always named it.
        String nearest = store.miss("plan", store.fingerprint(changed), changed).problem();
        assertTrue(message.startsWith(nearest + ". "), message);
        assertTrue(nearest.startsWith("no cassette for op 'plan': looked for " + store.fingerprint(changed)
                + ".json; the nearest recorded request is "), nearest);
        assertTrue(nearest.contains("messages[0].content"), nearest);
        assertEquals(Shape.values().length * ToolOrders.MAX_TOOLS, cassettes(config));
    }

    @Test
    void aMissBesideItsOnlyRecordingNamesItWithTheMessageAndTheToolsThatDiffer() throws Exception {
        HarnessConfig config = TestProject.create(dir, SDK_YAML);
        Shape shape = Shape.MESSAGES;
        ObjectNode recorded = shape.request("plan", shape.tools(2));
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        store.write(recorded, shape.answer("planned"), null, "plan");
        ObjectNode changed = shape.request("plan again", List.of(shape.tools(2).get(1), shape.tools(2).get(0)));
        AgentLoop loop = run -> {
            try (var scope = run.op("plan")) {
                run.http().exchange(attempt(shape, changed));
            }
            return List.of();
        };
        RunTrace trace = Rehearsal.prepare(config, () -> loop).run(scenario(config, "quiet"), null);
        assertEquals(RunTrace.Kind.CASSETTE, trace.failure().kind());
        assertTrue(trace.failure().message().startsWith("no cassette for op 'plan': looked for "
                + store.fingerprint(changed) + ".json; the nearest recorded request is " + store.fingerprint(recorded)
                + ".json, which differs at messages[0].content, tools[0].name, "), trace.failure().message());
    }

    @Test
    void requestsThatMatchExactlyNeverBuildTheIndex() throws Exception {
        HarnessConfig config = sdkProject();
        AgentLoop loop = run -> {
            try (var scope = run.op("plan")) {
                for (Shape shape : Shape.values()) {
                    for (int n = 1; n <= ToolOrders.MAX_TOOLS; n++) {
                        run.http().exchange(attempt(shape, shape.request(prompt(shape, n), shape.tools(n))));
                    }
                }
                // A stream of a request recorded whole: the exact look-up without "stream" finds it first.
                Shape shape = Shape.CHAT_COMPLETIONS;
                ObjectNode streamed = shape.request(prompt(shape, 4), shape.tools(4)).put("stream", true);
                HttpAnswer answer = run.http().exchange(attempt(shape, streamed));
                if (!(answer instanceof HttpAnswer.Response r) || r.status() != 200) {
                    throw new AssertionError("the stream is answered: " + answer);
                }
            }
            return List.of(Outcome.ok("plan", null, 1));
        };
        Rehearsal rehearsal = Rehearsal.prepare(config, () -> loop);
        RunTrace trace = rehearsal.run(scenario(config, "quiet"), null);
        assertNull(trace.failure());
        assertEquals(Shape.values().length * ToolOrders.MAX_TOOLS + 1, trace.calls().size());
        assertFalse(rehearsal.lookup().toolOrderIndexed(), "no request needed another order");
    }

    /** A project declaring, for each shape and number of tools, an op whose request a team's loop sends itself. */
    private HarnessConfig declaredProject() throws Exception {
        StringBuilder requests = new StringBuilder();
        List<String> ops = new ArrayList<>();
        for (Shape shape : Shape.values()) {
            for (int n = 1; n <= ToolOrders.MAX_TOOLS; n++) {
                String op = shape.name().toLowerCase(java.util.Locale.ROOT) + "_" + n;
                ops.add(op);
                requests.append("  ").append(op).append(": ")
                        .append(Json.compact(shape.request(prompt(shape, n), shape.tools(n)))).append('\n');
            }
        }
        Files.writeString(dir.resolve("resilience.yaml"), "version: 1\npolicy: {max_total_wait: 30s}\nrequests:\n"
                + requests + "scenarios:\n  - {name: quiet, ops: [" + String.join(", ", ops) + "], faults: []}\n");
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        for (String op : ops) {
            Shape shape = Shape.valueOf(op.substring(0, op.lastIndexOf('_')).toUpperCase(java.util.Locale.ROOT));
            store.write(config.request(op), shape.answer(op), null);
        }
        return config;
    }

    @Test
    void everyOrderOfADeclaredRequestsToolsReplaysThroughTheTransport() throws Exception {
        HarnessConfig config = declaredProject();
        List<String> expected = new ArrayList<>();
        List<String> answered = new ArrayList<>();
        AgentLoop loop = run -> {
            List<Outcome> outcomes = new ArrayList<>();
            for (String op : run.ops()) {
                Shape shape = Shape.valueOf(op.substring(0, op.lastIndexOf('_')).toUpperCase(java.util.Locale.ROOT));
                ObjectNode declared = run.request(op);
                for (List<JsonNode> order : ToolOrders.permutations(ToolOrders.toolsOf(declared))) {
                    expected.add(op + " " + order);
                    try {
                        Reply reply = run.transport().call(ToolOrders.withTools(declared, order));
                        answered.add(shape.text(reply.body()) + " " + order);
                    } catch (CallFailure e) {
                        answered.add(e.toString());
                    }
                }
                outcomes.add(Outcome.ok(op, null, 1));
            }
            return outcomes;
        };
        Rehearsal rehearsal = Rehearsal.prepare(config, () -> loop);
        RunTrace trace = rehearsal.run(scenario(config, "quiet"), null);

        assertNull(trace.failure());
        assertEquals(Shape.values().length * (1 + 2 + 6 + 24 + 120), answered.size());
        assertEquals(expected, answered, "every order is answered as the declared request's op");
        for (CallRecord call : trace.calls()) {
            assertEquals(CallRecord.Result.OK, call.result());
        }
        assertTrue(rehearsal.lookup().toolOrderIndexed());

        // Sent as declared, no payload needs another order.
        AgentLoop exact = run -> {
            for (String op : run.ops()) {
                try {
                    run.transport().call(run.request(op));
                } catch (CallFailure e) {
                    throw new AssertionError(e);
                }
            }
            return List.of();
        };
        Rehearsal again = Rehearsal.prepare(config, () -> exact);
        assertNull(again.run(scenario(config, "quiet"), null).failure());
        assertFalse(again.lookup().toolOrderIndexed());
    }
}
