package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.ObjectMappers;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import java.util.ArrayList;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.tool.ToolCall;
import dev.resilienceharness.trace.ToolRecord;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A team's hand-written {@code tool_use} loop on anthropic-java executes the model's tool calls through
 * {@code run.tool(...)}: each execution meets the scenario's {@code tool_faults:} and is on the trace as the loop's.
 * Recorded against a provider on 127.0.0.1, replayed offline.
 */
class ToolLoopTest {

    static final String YAML = """
            version: 1
            cassettes: cassettes
            policy: {max_attempts: 3, base_delay: 10ms, max_delay: 5s, max_total_wait: 30s}
            loop: dev.resilienceharness.clients.anthropic.ToolLoopTest$RefundLoop
            tools:
              refund: {side_effects: true%s}
            scenarios:
              - name: calm
                ops: [resolve]
                faults: []
              - name: refund-timeout-after-commit
                ops: [resolve]
                faults: []
                tool_faults: {refund: [timeout_after_commit]}
            """;

    static final String ANSWER = "Refunded order A1.";

    @TempDir
    Path dir;

    /** The team's loop: the model asks for refunds, the loop runs each through run.tool and sends back its result. */
    static final class RefundLoop implements AgentLoop {

        static final Tool REFUND = Tool.builder().name("refund").description("Refund an order")
                .inputSchema(Tool.InputSchema.builder()
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("order", Map.of("type", "string"))))
                        .build())
                .build();

        private final boolean retriesToolAfterTimeout;
        private final boolean passesKey;
        final AtomicInteger refunds = new AtomicInteger();

        RefundLoop(boolean retriesToolAfterTimeout, boolean passesKey) {
            this.retriesToolAfterTimeout = retriesToolAfterTimeout;
            this.passesKey = passesKey;
        }

        @Override
        public List<Outcome> run(LoopRun run) {
            refunds.set(0);
            AnthropicClient client = HarnessAnthropic.client(run);
            MessageCreateParams.Builder params = MessageCreateParams.builder().model("claude-sonnet-4-5")
                    .maxTokens(1024).addUserMessage("Refund order A1").addTool(REFUND);
            try (var scope = run.op("resolve")) {
                while (true) {
                    Message message = client.messages().create(params.build());
                    params.addMessage(message);
                    List<ContentBlockParam> results = new ArrayList<>();
                    StringBuilder text = new StringBuilder();
                    for (ContentBlock block : message.content()) {
                        block.text().ifPresent(t -> text.append(t.text()));
                        if (block.isToolUse()) {
                            ToolUseBlock use = block.asToolUse();
                            results.add(ContentBlockParam.ofToolResult(ToolResultBlockParam.builder()
                                    .toolUseId(use.id()).content(execute(run, use.name(), input(use))).build()));
                        }
                    }
                    if (results.isEmpty()) {
                        return List.of(Outcome.ok("resolve", JsonNodeFactory.instance.objectNode()
                                .put("text", text.toString()), 1));
                    }
                    params.addUserMessageOfContentBlockParams(results);
                }
            }
        }

        private static String input(ToolUseBlock use) {
            try {
                return ObjectMappers.jsonMapper().writeValueAsString(use._input());
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        private String execute(LoopRun run, String name, String arguments) {
            ToolCall call = ToolCall.of(name, arguments);
            if (passesKey) {
                call = call.idempotencyKey("refund-A1");
            }
            for (int attempt = 1; ; attempt++) {
                try {
                    return run.tool(call, () -> {
                        refunds.incrementAndGet();
                        return "{\"status\":\"refunded\"}";
                    });
                } catch (SocketTimeoutException e) {
                    if (!retriesToolAfterTimeout || attempt > 1) {
                        return "refund timed out";
                    }
                } catch (Exception e) {
                    return "refund failed: " + e.getMessage();
                }
            }
        }
    }

    private HarnessConfig recorded(String refundSettings) throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, YAML.formatted(refundSettings));
        HarnessConfig config = ConfigLoader.load(yaml);
        HttpServer provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        provider.createContext("/v1/messages", exchange -> {
            boolean answered = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)
                    .contains("\"tool_result\"");
            String content = answered ? "[{\"type\":\"text\",\"text\":\"" + ANSWER + "\"}]"
                    : "[{\"type\":\"tool_use\",\"id\":\"toolu_refund\",\"name\":\"refund\","
                            + "\"input\":{\"order\":\"A1\"}}]";
            byte[] body = ("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":"
                    + "\"claude-sonnet-4-5\",\"content\":" + content + ",\"stop_reason\":\""
                    + (answered ? "end_turn" : "tool_use") + "\",\"stop_sequence\":null,\"usage\":"
                    + "{\"input_tokens\":20,\"output_tokens\":10}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        provider.start();
        try {
            LoopRecorder.prepare(config, () -> new RefundLoop(false, false)).recordMissing(scenario(config, "calm"),
                    LiveHttp.to(URI.create("http://127.0.0.1:" + provider.getAddress().getPort() + "/v1"), "sk-test",
                            Duration.ofSeconds(10)), RecordingRedaction.forConfig(config));
        } finally {
            provider.stop(0);
        }
        return config;
    }

    private static Scenario scenario(HarnessConfig config, String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static ScenarioResult check(HarnessConfig config, String scenario, RefundLoop loop) throws Exception {
        return Rehearsal.prepare(config, () -> loop).check(scenario(config, scenario), 1,
                EnumSet.of(Invariant.DETERMINISM, Invariant.SIDE_EFFECTS));
    }

    @Test
    void theLoopsToolExecutionIsOnTheTraceAsTheLoops() throws Exception {
        HarnessConfig config = recorded("");
        ScenarioResult result = check(config, "calm", new RefundLoop(false, false));
        assertEquals(List.of(), result.violations());
        assertEquals(ANSWER, result.trace().outcomes().get(0).value().get("text").asString());
        ToolRecord refund = result.trace().tools().get(0);
        assertEquals(List.of("refund"), result.trace().tools().stream().map(ToolRecord::name).toList());
        assertEquals("resolve", refund.op());
        assertEquals(1, refund.round());
        assertEquals(ToolCall.LOOP, refund.layer());
        assertEquals("none", refund.fault());
        assertEquals("{\"order\":\"A1\"}", refund.arguments());
    }

    @Test
    void aLoopThatRunsTheToolAgainAfterATimeoutAfterCommitFailsSideEffectsNamingTheLoop() throws Exception {
        HarnessConfig config = recorded("");
        RefundLoop loop = new RefundLoop(true, false);
        ScenarioResult result = check(config, "refund-timeout-after-commit", loop);
        assertEquals(2, loop.refunds.get());
        List<Violation> effects = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.SIDE_EFFECTS).toList();
        assertEquals(1, effects.size(), result.violations().toString());
        assertTrue(effects.get(0).message().endsWith("repeated by the loop, which retried the tool itself after it"
                + " timed out without asking the model again"), effects.get(0).message());
        assertTrue(effects.get(0).hint().startsWith("Never retry a side-effecting tool blindly after a timeout"),
                effects.get(0).hint());
    }

    @Test
    void theSameRetryPassingAnIdempotencyKeyTheToolHonoursPasses() throws Exception {
        HarnessConfig config = recorded(", idempotency_key: passed");
        RefundLoop loop = new RefundLoop(true, true);
        ScenarioResult result = check(config, "refund-timeout-after-commit", loop);
        assertEquals(List.of(), result.violations());
        assertEquals(2, loop.refunds.get());
        assertTrue(result.trace().tools().stream().allMatch(t -> "refund-A1".equals(t.idempotencyKey())));
    }
}
