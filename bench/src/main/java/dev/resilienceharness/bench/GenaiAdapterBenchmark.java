package dev.resilienceharness.bench;

import com.google.genai.Client;
import com.google.genai.errors.GenAiIOException;
import com.google.genai.types.GenerateContentResponse;
import dev.resilienceharness.clients.genai.HarnessGenai;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Setup;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Scenario-runs per second of a five-op scenario through the google-genai adapter on one thread: per run a real
 * {@code com.google.genai.Client} with the SDK's defaults ({@code HarnessGenai.client(run)}: its retry interceptor,
 * OkHttp's chain, its JSON both ways), answered from cassettes recorded through the adapter in the setup. Of the four
 * scenarios two are clean, one meets a broken tool call and one a slow first token on the virtual clock; none meets
 * a fault the SDK retries, since its retry layer sleeps for real (which the harness reports, not measures).
 */
public class GenaiAdapterBenchmark extends AdapterBenchmark {

    private static final String MODEL = "gemini-2.5-flash";

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.bench.GenaiAdapterBenchmark$SdkLoop
            policy: {max_total_wait: 60s}
            scenarios:
              - {name: clean, ops: [plan, read, patch, test, review], faults: []}
              - {name: clean-again, ops: [plan, read, patch, test, review], faults: []}
              - {name: bad-tool-call, ops: [plan, read, patch, test, review], faults: [none, none, bad_tool_call]}
              - {name: slow, ops: [plan, read, patch, test, review], faults: [{slow_first_token: {elapsed_ms: 3500}}]}
            """;

    /** A team loop on google-genai's default client: one generateContent per op, the SDK's retry layer underneath. */
    public static final class SdkLoop implements AgentLoop {
        @Override
        public List<Outcome> run(LoopRun run) {
            Client client = HarnessGenai.client(run);
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                try (var scope = run.op(op)) {
                    GenerateContentResponse r = client.models.generateContent(MODEL, prompt(op), null);
                    // The text part and the call, read apart: r.text() logs a warning for every non-text part.
                    String text = r.parts().get(0).text().orElse("");
                    out.add(Outcome.ok(op, JsonNodeFactory.instance.stringNode(text + " " + r.functionCalls().size()),
                            1));
                } catch (GenAiIOException e) {
                    out.add(Outcome.degraded(op, "schema", 1));
                }
            }
            return out;
        }
    }

    @Setup
    public void prepare() throws Exception {
        HarnessConfig config = config("genai-bench", YAML);
        // Recorded through the loop's own client from a Gemini provider stand-in.
        record(config, SdkLoop::new, "/v1beta/models/", "/v1beta", "bench-key", GenaiAdapterBenchmark::answer);
        rehearse(config, SdkLoop::new);
        // Measure runs that do what they should: five calls each, no failed run, no real sleep.
        requireSoundRuns((s, trace) -> callsFailureSleeps(trace, OPS.size()));
    }

    private static String answer(String op) {
        return "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"" + op
                + " done\"},{\"functionCall\":{\"name\":\"apply_patch\",\"args\":{\"path\":\"" + op + ".txt\"}}}]},"
                + "\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":9,"
                + "\"candidatesTokenCount\":2,\"totalTokenCount\":11},\"modelVersion\":\"" + MODEL + "\","
                + "\"responseId\":\"r-" + op + "\"}";
    }
}
