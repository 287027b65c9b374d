package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.transport.ProcessRecycled;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatOptions;

/** openai-java's HTTP client SPI over a run, seen through what Spring AI sends and what the run's trace records. */
class RunHttpClientTest {

    @TempDir
    Path dir;

    private RunTrace run(String scenario, AgentLoop loop) throws Exception {
        Workspace ws = Workspace.in(dir);
        return ws.rehearsal(() -> loop).run(ws.scenario(scenario), null);
    }

    /** A loop that makes one call for op plan and keeps what the call threw. */
    private static AgentLoop planOnce(Function<LoopRun, ChatModel> models, String prompt,
            AtomicReference<Throwable> thrown) {
        return run -> {
            try (var scope = run.op("plan")) {
                models.apply(run).call(new Prompt(prompt));
            } catch (RuntimeException | Error e) {
                thrown.set(e);
                throw e;
            }
            return List.of();
        };
    }

    @Test
    void everyAttemptIsOneCallLabelledWithTheSdkAndItsRetryNumber() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        RunTrace trace = run("quota-four-times", planOnce(HarnessSpringAiTest.DEFAULTS,
                TeamLoop.PROMPTS.get("plan"), thrown));
        assertEquals(List.of(0, 1, 2, 3), trace.calls().stream().map(CallRecord::sdkRetry).toList());
        assertTrue(trace.calls().stream().allMatch(c -> c.sdk().equals(HarnessSpringAi.SDK) && c.op().equals("plan")));
        assertInstanceOf(com.openai.errors.RateLimitException.class, thrown.get());
    }

    @Test
    void aTimeoutCostsTheClientsOwnTimeoutOnTheVirtualClockAndIsTheSdksIoException() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Function<LoopRun, ChatModel> thirtySeconds = run -> HarnessSpringAi.builder(run)
                .options(OpenAiChatOptions.builder().timeout(Duration.ofSeconds(30)).maxRetries(0).build()).build();
        RunTrace trace = run("timeout-then-ok", planOnce(thirtySeconds, TeamLoop.PROMPTS.get("plan"), thrown));
        assertEquals(1, trace.calls().size());
        assertEquals(CallRecord.Result.TRANSIENT, trace.calls().get(0).result());
        com.openai.errors.OpenAIIoException io = assertInstanceOf(com.openai.errors.OpenAIIoException.class,
                thrown.get());
        assertInstanceOf(java.net.SocketTimeoutException.class, io.getCause());
        assertEquals("timeout: no answer in 30000 ms", io.getCause().getMessage());
    }

    @Test
    void theDefaultTimeoutIsSpringAisSixtySeconds() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Function<LoopRun, ChatModel> noRetries = HarnessSpringAiTest.NO_SDK_RETRIES;
        run("timeout-then-ok", planOnce(noRetries, TeamLoop.PROMPTS.get("plan"), thrown));
        assertEquals("timeout: no answer in 60000 ms", thrown.get().getCause().getMessage());
    }

    @Test
    void aCrashPassesThroughSpringAiAndTheSdkUntouched() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Workspace ws = Workspace.in(dir);
        Rehearsal rehearsal = ws.rehearsal(() -> run -> {
            try (var scope = run.op("plan")) {
                HarnessSpringAi.chatModel(run).call(new Prompt(TeamLoop.PROMPTS.get("plan")));
            } catch (Error e) {
                thrown.compareAndSet(null, e);
                throw e;
            }
            return List.of();
        });
        RunTrace trace = rehearsal.run(ws.scenario("quota-once").withFaults(List.of(new CrashFault())), null);
        assertInstanceOf(ProcessRecycled.class, thrown.get());
        assertEquals(1, trace.restarts().size());
        // Spring AI's default maxRetries never saw it: one call died, then the fresh process made one.
        assertEquals(2, trace.calls().size());
    }

    @Test
    void aCassetteMissReachesTheLoopAsTheHarnesssOwnExceptionNotAsAnSdkError() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        RunTrace trace = run("quota-once", planOnce(HarnessSpringAiTest.DEFAULTS, "Which model are you?", thrown));
        CassetteMiss miss = assertInstanceOf(CassetteMiss.class, thrown.get());
        assertTrue(miss.getMessage().startsWith("no cassette for op 'plan'"), miss.getMessage());
        assertEquals(0, trace.calls().size(), "a miss is not retried");
    }

}
