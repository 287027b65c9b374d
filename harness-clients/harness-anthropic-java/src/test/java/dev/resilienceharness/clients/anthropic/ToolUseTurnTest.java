package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.TextBlock;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A turn of three model rounds inside one op, written by hand with anthropic-java: messages with {@code tools}, each
 * {@code tool_use} run and its {@code tool_result} sent back until the model answers (it asks for the order, then for
 * the parcel, then answers), under {@code policy.max_rounds}. Recorded through the adapter against a provider on
 * 127.0.0.1, replayed offline.
 */
class ToolUseTurnTest {

    static final String KEY = "sk-proj-recording0key0that0must0never0reach0disk";

    private static final String YAML = """
            version: 1
            cassettes: cassettes
            loop: dev.resilienceharness.clients.anthropic.ToolUseTurnTest$TurnLoop
            policy:
              max_total_wait: 30s
              max_rounds: 3
            scenarios:
              - name: turn
                ops: [resolve]
                expect: {status: [ok]}
              - name: turn-in-two-rounds
                ops: [resolve]
                policy: {max_rounds: 2}
            """;

    @TempDir
    Path dir;

    private HttpServer provider;
    private final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());
    private HarnessConfig config;

    /** The team's tools, run when the model asks for them. */
    static final class OrderTools {
        final List<String> ran = Collections.synchronizedList(new ArrayList<>());

        String run(String name, JsonNode args) {
            return switch (name) {
                case "lookupOrder" -> {
                    ran.add("lookupOrder " + args.path("orderId").asString());
                    yield "order " + args.path("orderId").asString() + " shipped with parcel TRK-77";
                }
                case "trackParcel" -> {
                    ran.add("trackParcel " + args.path("parcel").asString());
                    yield "parcel " + args.path("parcel").asString() + " is out for delivery";
                }
                default -> throw new IllegalArgumentException("no tool " + name);
            };
        }
    }

    private static Tool tool(String name, String description, String parameter) {
        return Tool.builder().name(name).description(description)
                .inputSchema(Tool.InputSchema.builder()
                        .properties(Tool.InputSchema.Properties.builder()
                                .putAdditionalProperty(parameter, JsonValue.from(Map.of("type", "string"))).build())
                        .required(List.of(parameter))
                        .build())
                .build();
    }

    /** The loop: one op, a tool-use loop inside it that runs until the model stops asking for tools. */
    static final class TurnLoop implements AgentLoop {
        final OrderTools tools = new OrderTools();

        @Override
        public List<Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            AnthropicClient client = HarnessAnthropic.client(run);
            try (var scope = run.op("resolve")) {
                MessageCreateParams.Builder params = MessageCreateParams.builder()
                        .model("claude-sonnet-4-5")
                        .maxTokens(1024)
                        .addUserMessage("Where is order A-1042?")
                        .addTool(tool("lookupOrder", "Look up an order by its id", "orderId"))
                        .addTool(tool("trackParcel", "Track a parcel by its number", "parcel"));
                while (true) {
                    Message message = client.messages().create(params.build());
                    List<ToolUseBlock> uses = message.content().stream().flatMap(b -> b.toolUse().stream()).toList();
                    if (uses.isEmpty()) {
                        String text = message.content().stream().flatMap(b -> b.text().stream())
                                .map(TextBlock::text).reduce("", String::concat);
                        ObjectNode value = Json.mapper().createObjectNode().put("text", text);
                        return List.of(Outcome.ok("resolve", value, 1));
                    }
                    params.addMessage(message);
                    List<ContentBlockParam> results = new ArrayList<>();
                    for (ToolUseBlock use : uses) {
                        JsonNode input = Json.mapper().valueToTree(use._input().convert(Map.class));
                        results.add(ContentBlockParam.ofToolResult(ToolResultBlockParam.builder().toolUseId(use.id())
                                .content(tools.run(use.name(), input)).build()));
                    }
                    params.addUserMessageOfContentBlockParams(results);
                }
            }
        }
    }

    @BeforeEach
    void start() throws Exception {
        provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        provider.createContext("/v1/messages", exchange -> {
            JsonNode request = Json.readTree(exchange.getRequestBody().readAllBytes());
            requests.add(request);
            byte[] body = Json.compact(ToolTurnStub.answer(request)).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        provider.start();
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, YAML);
        config = ConfigLoader.load(yaml);
    }

    @AfterEach
    void stop() {
        provider.stop(0);
    }

    private Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private List<String> record(LoopFactory loops) throws Exception {
        LiveHttp live = LiveHttp.to(URI.create("http://127.0.0.1:" + provider.getAddress().getPort() + "/v1"), KEY,
                Duration.ofSeconds(10));
        LoopRecorder.Recording recording = LoopRecorder.prepare(config, loops)
                .recordMissing(scenario("turn"), live, RecordingRedaction.forConfig(config));
        return recording.requests().stream().map(r -> r.op() + " round " + r.round()).toList();
    }

    @Test
    void aThreeRoundTurnIsRecordedRoundByRoundAndReplaysOfflineAsOneOp() throws Exception {
        TurnLoop recorded = new TurnLoop();
        assertEquals(List.of("resolve round 1", "resolve round 2", "resolve round 3"), record(() -> recorded));
        assertEquals(List.of("lookupOrder A-1042", "trackParcel TRK-77"), recorded.tools.ran);
        assertEquals(3, requests.size());
        assertEquals(List.of(0, 1, 2), requests.stream().map(ToolTurnStub::toolResults).toList(),
                "each round sent the tool results of the rounds before it");
        try (var files = Files.list(dir.resolve("cassettes"))) {
            assertEquals(3, files.count(), "one cassette per round");
        }

        TurnLoop replaying = new TurnLoop();
        ScenarioResult replayed = Rehearsal.prepare(config, () -> replaying)
                .check(scenario("turn"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), replayed.violations());
        assertEquals(3, replayed.trace().calls().size());
        assertEquals(List.of(Status.OK), replayed.trace().outcomes().stream().map(Outcome::status).toList());
        assertEquals(ToolTurnStub.FINAL_ANSWER, replayed.trace().outcomes().get(0).value().get("text").asString());
        assertEquals(3, replayed.callBudget(), "three rounds of one call each");
        assertEquals(3, requests.size(), "the replay sent nothing");
    }

    @Test
    void theSameTurnUnderMaxRounds2FailsTheBudgetNamingRound3() throws Exception {
        record(TurnLoop::new);
        ScenarioResult replayed = Rehearsal.prepare(config, TurnLoop::new)
                .check(scenario("turn-in-two-rounds"), 1, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of("turn-in-two-rounds [budget] op 'resolve': round 3 of at most 2 (policy.max_rounds)"
                + " (bound 2 rounds, actual 3 rounds). Raise policy.max_rounds if the turn really needs more model"
                + " rounds; else stop the loop from asking the model again (cap its tool calls, or answer once the"
                + " tools have run)"), replayed.violations().stream().map(Violation::line).toList());
        assertEquals(3, requests.size(), "the replay sent nothing");
    }

    /** The provider's side of the turn, in the Messages format. */
    static final class ToolTurnStub {
        static final String FINAL_ANSWER = "Order A-1042 has shipped; parcel TRK-77 is out for delivery.";

        private ToolTurnStub() {
        }

        /** How many tool results the request sends back. */
        static int toolResults(JsonNode request) {
            int n = 0;
            for (JsonNode m : request.path("messages")) {
                for (JsonNode block : m.path("content")) {
                    n += "tool_result".equals(block.path("type").asString()) ? 1 : 0;
                }
            }
            return n;
        }

        /** Asks for the order, then for the parcel, then answers: by how many tool results came back. */
        static JsonNode answer(JsonNode request) {
            int results = toolResults(request);
            ObjectNode response = Json.mapper().createObjectNode();
            response.put("id", "msg_0" + (results + 1)).put("type", "message").put("role", "assistant")
                    .put("model", request.path("model").asString());
            ArrayNode content = response.putArray("content");
            if (results < 2) {
                String tool = results == 0 ? "lookupOrder" : "trackParcel";
                ObjectNode use = content.addObject().put("type", "tool_use").put("id", "toolu_" + tool)
                        .put("name", tool);
                use.putObject("input").put(results == 0 ? "orderId" : "parcel", results == 0 ? "A-1042" : "TRK-77");
                response.put("stop_reason", "tool_use");
            } else {
                content.addObject().put("type", "text").put("text", FINAL_ANSWER);
                response.put("stop_reason", "end_turn");
            }
            response.putNull("stop_sequence");
            response.putObject("usage").put("input_tokens", 40).put("output_tokens", 12);
            return response;
        }
    }
}
