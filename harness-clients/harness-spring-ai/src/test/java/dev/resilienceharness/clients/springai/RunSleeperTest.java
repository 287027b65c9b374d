package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.trace.RunTrace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.openai.OpenAiChatOptions;

/** The SDK's retry waits, blocking and asynchronous, on the run's virtual clock and marked as the SDK's. */
class RunSleeperTest {

    @TempDir
    Path dir;

    private RunTrace run(String scenario, AgentLoop loop) throws Exception {
        Workspace ws = Workspace.in(dir);
        return ws.rehearsal(() -> loop).run(ws.scenario(scenario), null);
    }

    private static ChatCompletionCreateParams plan() {
        return ChatCompletionCreateParams.builder().model("gpt-5-mini").addUserMessage(TeamLoop.PROMPTS.get("plan"))
                .build();
    }

    @Test
    void theBlockingClientWaitsTheStatedRetryAfterVirtually() throws Exception {
        AtomicReference<String> answer = new AtomicReference<>();
        RunTrace trace = run("quota-retry-after-2s", run -> {
            try (var scope = run.op("plan")) {
                ChatCompletion c = HarnessSpringAi.openAiClient(run, OpenAiChatOptions.builder().build()).chat()
                        .completions().create(plan());
                answer.set(c.choices().get(0).message().content().orElse(""));
            }
            return List.<Outcome>of();
        });
        assertEquals(List.of(new VirtualClock.Wait(0, Duration.ofSeconds(2).toNanos(), HarnessSpringAi.SDK)),
                trace.waits());
        assertEquals(2, trace.calls().size());
        assertEquals("1. Reproduce the failure. 2. Make Range.contains include its upper bound. 3. Add a test for the"
                + " bound.", answer.get());
    }

    @Test
    void theAsynchronousClientWaitsThroughSleepAsyncVirtually() throws Exception {
        RunTrace trace = run("quota-retry-after-2s", run -> {
            try (var scope = run.op("plan")) {
                HarnessSpringAi.openAiClientAsync(run, OpenAiChatOptions.builder().build()).chat().completions()
                        .create(plan()).join();
            }
            return List.<Outcome>of();
        });
        assertEquals(List.of(new VirtualClock.Wait(0, Duration.ofSeconds(2).toNanos(), HarnessSpringAi.SDK)),
                trace.waits());
        assertEquals(List.of(0, 1), trace.calls().stream().map(c -> c.sdkRetry()).toList());
        assertEquals(List.of(), trace.realSleeps());
    }
}
