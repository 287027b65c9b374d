package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.CallResult;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The harness's transport gives a loop the same failures, and records the same calls, whether the loop takes them
 * thrown ({@code call}) or as values ({@code send}, which the built-in loop uses).
 */
class ScenarioTransportSendTest {

    private static final String YAML = """
            version: 1
            loop: com.acme.Loop
            policy: {max_total_wait: 30s}
            provider_limits:
              requests_per_minute: 9
            scenarios:
              - name: faults
                ops: [plan]
                faults: [{quota: {retry_after: "1.5"}}, {server_error: {status: 502}}, timeout, bad_tool_call,
                         {stream_cut: {after_events: 2}}, truncated_tool_call, {slow_first_token: {elapsed_ms: 3000}},
                         none, none, none, crash]
            """;

    @TempDir
    Path dir;

    /**
     * A loop that makes twelve calls for {@code plan} in its first process (the crash ends it after eleven) and four
     * in the next, noting what each gave as the loop saw it.
     */
    private static AgentLoop loop(boolean send, List<String> seen, AtomicInteger processes) {
        return run -> {
            int calls = processes.getAndIncrement() == 0 ? 12 : 4;
            for (int i = 0; i < calls; i++) {
                ObjectNode payload = run.request("plan");
                if (send) {
                    seen.add(describe(run.transport().send(payload)));
                } else {
                    try {
                        seen.add(describe(run.transport().call(payload)));
                    } catch (CallFailure failure) {
                        seen.add(describe(failure));
                    }
                }
            }
            return List.of(Outcome.ok("plan", null, 1));
        };
    }

    private static String describe(CallResult result) {
        if (result instanceof Reply reply) {
            return "reply " + reply.body() + " " + reply.firstTokenMs();
        }
        String kind = result instanceof QuotaExhausted quota ? " " + quota.kind() : "";
        return result.getClass().getSimpleName() + kind + ": " + ((CallFailure) result).getMessage();
    }

    @Test
    void thrown_or_as_values_the_failures_and_the_recorded_calls_are_the_same() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        List<String> thrown = new ArrayList<>();
        List<String> values = new ArrayList<>();
        AtomicInteger callProcesses = new AtomicInteger();
        AtomicInteger sendProcesses = new AtomicInteger();
        RunTrace byCall = Rehearsal.prepare(config, () -> loop(false, thrown, callProcesses))
                .run(scenario(config, "faults"), null);
        RunTrace bySend = Rehearsal.prepare(config, () -> loop(true, values, sendProcesses))
                .run(scenario(config, "faults"), null);
        String answer = "reply {\"done\":\"plan\"} OptionalLong.empty";
        assertEquals(List.of(
                "QuotaExhausted QUOTA: quota_exhausted",
                "TransientError: server_error 502",
                "TransientError: timeout",
                "BadToolCall: injected bad_tool_call for op 'plan'",
                "TransientError: stream_cut after 2 events",
                "BadToolCall: the streamed tool-call arguments stop mid-JSON (injected truncated_tool_call fault)",
                "reply {\"done\":\"plan\"} OptionalLong[3000]", answer, answer, answer,
                // The crash ends the first process, whose seven calls from the fourth on reached the limits (the
                // stream cut among them: it needs the recorded answer); the window admits two more of its 9.
                answer, answer, "QuotaExhausted RATE_LIMIT: quota_exhausted",
                "QuotaExhausted RATE_LIMIT: quota_exhausted"), values);
        assertEquals(values, thrown);
        List<CallRecord.Result> results = bySend.calls().stream().map(CallRecord::result).toList();
        assertEquals(List.of(CallRecord.Result.QUOTA, CallRecord.Result.TRANSIENT, CallRecord.Result.TRANSIENT,
                CallRecord.Result.SCHEMA, CallRecord.Result.TRANSIENT, CallRecord.Result.SCHEMA, CallRecord.Result.OK,
                CallRecord.Result.OK, CallRecord.Result.OK, CallRecord.Result.OK, CallRecord.Result.CRASH,
                CallRecord.Result.OK, CallRecord.Result.OK, CallRecord.Result.QUOTA, CallRecord.Result.QUOTA), results);
        assertEquals(byCall.calls(), bySend.calls());
        assertEquals(List.of(1, 1), List.of(byCall.restarts().size(), bySend.restarts().size()),
                "send still throws the crash, and the run restarts");
    }
}
