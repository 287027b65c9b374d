package dev.resilienceharness.clients.genai;

import dev.resilienceharness.clients.tck.RefundTool;
import dev.resilienceharness.clients.tck.ToolLoopContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.List;

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
            return FunctionCallingTurnTest.resolve(run, "Refund order A1",
                    List.of(FunctionCallingTurnTest.declaration("refund", "Refund an order", "order")),
                    (name, args) -> refund.execute(run, name, Json.compact(args)));
        }
    }

    ToolLoopTest() {
        super(ApiShape.GEMINI, RefundLoop::new);
    }
}
