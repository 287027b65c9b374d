package dev.resilienceharness.clients.genai;

import com.google.genai.Client;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.Part;
import com.google.genai.types.Tool;
import dev.resilienceharness.clients.tck.RefundTool;
import dev.resilienceharness.clients.tck.ToolLoopContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A team's hand-written function-calling loop on google-genai executes the model's {@code functionCall}s through
 * {@code run.tool(...)} and sends back each {@code functionResponse}: each execution meets the scenario's
 * {@code tool_faults:} and is on the trace as the loop's. Recorded against a Gemini provider on 127.0.0.1, replayed
 * offline.
 */
class ToolLoopTest extends ToolLoopContract<ToolLoopTest.RefundLoop> {

    /** The team's loop: the model calls refund, the loop runs each call through run.tool and sends back its result. */
    record RefundLoop(RefundTool refund) implements AgentLoop {

        @Override
        public List<Outcome> run(LoopRun run) {
            refund.reset();
            Client client = HarnessGenai.client(run);
            GenerateContentConfig config = GenerateContentConfig.builder()
                    .tools(Tool.builder().functionDeclarations(FunctionCallingTurnTest.declaration("refund",
                            "Refund an order", "order")))
                    .build();
            List<Content> contents = new ArrayList<>(List.of(Content.builder().role("user")
                    .parts(Part.fromText("Refund order A1")).build()));
            try (var scope = run.op("resolve")) {
                while (true) {
                    GenerateContentResponse response = client.models.generateContent("gemini-2.5-flash", contents,
                            config);
                    List<FunctionCall> calls = response.functionCalls();
                    if (calls == null || calls.isEmpty()) {
                        return List.of(Outcome.ok("resolve", JsonNodeFactory.instance.objectNode()
                                .put("text", response.text()), 1));
                    }
                    contents.add(response.candidates().orElseThrow().get(0).content().orElseThrow());
                    List<Part> results = new ArrayList<>();
                    for (FunctionCall call : calls) {
                        String name = call.name().orElseThrow();
                        String arguments = Json.compact(Json.mapper().valueToTree(call.args().orElseThrow()));
                        results.add(Part.fromFunctionResponse(name, Map.of("result",
                                refund.execute(run, name, arguments))));
                    }
                    contents.add(Content.builder().role("user").parts(results).build());
                }
            }
        }
    }

    ToolLoopTest() {
        super(ApiShape.GEMINI, RefundLoop::new);
    }
}
