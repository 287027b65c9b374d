package dev.resilienceharness.clients.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
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
 * A turn of three model rounds inside one op, written by hand with openai-java: chat completions with {@code tools},
 * each tool call run and its result sent back as a {@code tool} message until the model answers (it asks for the
 * order, then for the parcel, then answers), under {@code policy.max_rounds}. Recorded through the adapter against a
 * provider on 127.0.0.1, replayed offline.
 */
class FunctionCallingTurnTest {

    static final String KEY = "sk-proj-recording0key0that0must0never0reach0disk";

    private static final String YAML = """
            version: 1
            cassettes: cassettes
            loop: dev.resilienceharness.clients.openai.FunctionCallingTurnTest$TurnLoop
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

        String run(String name, String arguments) {
            JsonNode args = Json.readTree(arguments);
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

    private static FunctionDefinition function(String name, String description, String parameter) {
        return FunctionDefinition.builder().name(name).description(description)
                .parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties",
                                JsonValue.from(Map.of(parameter, Map.of("type", "string"))))
                        .putAdditionalProperty("required", JsonValue.from(List.of(parameter)))
                        .build())
                .build();
    }

    /** The loop: one op, a function-calling loop inside it that runs until the model stops asking for tools. */
    static final class TurnLoop implements AgentLoop {
        final OrderTools tools = new OrderTools();

        @Override
        public List<Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            OpenAIClient client = HarnessOpenAi.client(run);
            try (var scope = run.op("resolve")) {
                ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder()
                        .model("gpt-4o-mini")
                        .addUserMessage("Where is order A-1042?")
                        .addFunctionTool(function("lookupOrder", "Look up an order by its id", "orderId"))
                        .addFunctionTool(function("trackParcel", "Track a parcel by its number", "parcel"));
                while (true) {
                    ChatCompletionMessage message = client.chat().completions().create(params.build()).choices().get(0)
                            .message();
                    List<ChatCompletionMessageToolCall> calls = message.toolCalls().orElse(List.of());
                    if (calls.isEmpty()) {
                        ObjectNode value = Json.mapper().createObjectNode().put("text", message.content().orElse(""));
                        return List.of(Outcome.ok("resolve", value, 1));
                    }
                    params.addMessage(message);
                    for (ChatCompletionMessageToolCall call : calls) {
                        ChatCompletionMessageFunctionToolCall f = call.asFunction();
                        params.addMessage(ChatCompletionToolMessageParam.builder().toolCallId(f.id())
                                .content(tools.run(f.function().name(), f.function().arguments())).build());
                    }
                }
            }
        }
    }

    @BeforeEach
    void start() throws Exception {
        provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        provider.createContext("/v1/chat/completions", exchange -> {
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

    /** The provider's side of the turn, in the Chat Completions format. */
    static final class ToolTurnStub {
        static final String FINAL_ANSWER = "Order A-1042 has shipped; parcel TRK-77 is out for delivery.";

        private ToolTurnStub() {
        }

        /** How many tool results the request sends back. */
        static int toolResults(JsonNode request) {
            int n = 0;
            for (JsonNode m : request.path("messages")) {
                n += "tool".equals(m.path("role").asString()) ? 1 : 0;
            }
            return n;
        }

        /** Asks for the order, then for the parcel, then answers: by how many tool results came back. */
        static JsonNode answer(JsonNode request) {
            ObjectNode response = Json.mapper().createObjectNode();
            response.put("id", "chatcmpl-" + requestNumber(request)).put("object", "chat.completion")
                    .put("created", 1767225600).put("model", request.path("model").asString());
            ObjectNode choice = response.putArray("choices").addObject();
            choice.put("index", 0);
            ObjectNode message = choice.putObject("message").put("role", "assistant");
            int results = toolResults(request);
            if (results < 2) {
                String tool = results == 0 ? "lookupOrder" : "trackParcel";
                String value = results == 0 ? "A-1042" : "TRK-77";
                message.putNull("content");
                ArrayNode calls = message.putArray("tool_calls");
                ObjectNode call = calls.addObject().put("id", "call_" + tool).put("type", "function");
                call.putObject("function").put("name", tool)
                        .put("arguments", "{\"" + parameter(request, tool) + "\":\"" + value + "\"}");
                choice.put("finish_reason", "tool_calls");
            } else {
                message.put("content", FINAL_ANSWER);
                choice.put("finish_reason", "stop");
            }
            response.putObject("usage").put("prompt_tokens", 40).put("completion_tokens", 12)
                    .put("total_tokens", 52);
            return response;
        }

        private static int requestNumber(JsonNode request) {
            return toolResults(request) + 1;
        }

        /** The tool's one parameter as the request's schema names it. */
        private static String parameter(JsonNode request, String tool) {
            for (JsonNode t : request.path("tools")) {
                if (tool.equals(t.path("function").path("name").asString())) {
                    return t.path("function").path("parameters").path("properties").propertyNames().iterator()
                            .next();
                }
            }
            throw new IllegalStateException("the request offers no tool " + tool + ": " + request);
        }
    }
}
