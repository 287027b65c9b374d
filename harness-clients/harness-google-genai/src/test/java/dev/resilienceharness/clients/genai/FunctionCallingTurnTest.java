package dev.resilienceharness.clients.genai;

import com.google.genai.Client;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.google.genai.types.Tool;
import com.google.genai.types.Type;
import dev.resilienceharness.clients.tck.OrderTurn;
import dev.resilienceharness.clients.tck.ToolTurnContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A turn of three model rounds inside one op, written by hand with google-genai: {@code generateContent} with
 * function declarations, each {@code functionCall} run and its {@code functionResponse} sent back until the model
 * answers (it asks for the order, then for the parcel, then answers), under {@code policy.max_rounds}. Recorded
 * through the adapter against a Gemini provider on 127.0.0.1, replayed offline.
 */
class FunctionCallingTurnTest extends ToolTurnContract<FunctionCallingTurnTest.TurnLoop> {

    static FunctionDeclaration declaration(String name, String description, String parameter) {
        return FunctionDeclaration.builder().name(name).description(description)
                .parameters(Schema.builder().type(Type.Known.OBJECT)
                        .properties(Map.of(parameter, Schema.builder().type(Type.Known.STRING).build()))
                        .required(List.of(parameter)))
                .build();
    }

    /**
     * Op {@code resolve} as a team writes it: {@code generateContent} with the declarations, each {@code functionCall}
     * run by {@code functions} (its name and arguments to its result) and its {@code functionResponse} sent back,
     * until the model answers; the answer's text is the op's value.
     */
    static List<Outcome> resolve(LoopRun run, String prompt, List<FunctionDeclaration> declarations,
            BiFunction<String, JsonNode, String> functions) {
        Client client = HarnessGenai.client(run);
        GenerateContentConfig config = GenerateContentConfig.builder()
                .tools(Tool.builder().functionDeclarations(declarations)).build();
        List<Content> contents = new ArrayList<>(List.of(Content.builder().role("user")
                .parts(Part.fromText(prompt)).build()));
        try (var scope = run.op("resolve")) {
            while (true) {
                GenerateContentResponse response = client.models.generateContent("gemini-2.5-flash", contents,
                        config);
                List<FunctionCall> calls = response.functionCalls();
                if (calls == null || calls.isEmpty()) {
                    ObjectNode value = Json.mapper().createObjectNode().put("text", response.text());
                    return List.of(Outcome.ok("resolve", value, 1));
                }
                contents.add(response.candidates().orElseThrow().get(0).content().orElseThrow());
                List<Part> results = new ArrayList<>();
                for (FunctionCall call : calls) {
                    String name = call.name().orElseThrow();
                    String result = functions.apply(name, Json.mapper().valueToTree(call.args().orElseThrow()));
                    results.add(Part.fromFunctionResponse(name, Map.of("result", result)));
                }
                contents.add(Content.builder().role("user").parts(results).build());
            }
        }
    }

    /** The loop: one op, a function-calling loop inside it that runs until the model stops calling functions. */
    record TurnLoop(OrderTurn.Tools tools) implements AgentLoop {

        @Override
        public List<Outcome> run(LoopRun run) {
            return resolve(run, "Where is order A-1042?", List.of(
                    declaration("lookupOrder", "Look up an order by its id", "orderId"),
                    declaration("trackParcel", "Track a parcel by its number", "parcel")), tools::run);
        }
    }

    FunctionCallingTurnTest() {
        super(ApiShape.GEMINI, TurnLoop::new);
    }
}
