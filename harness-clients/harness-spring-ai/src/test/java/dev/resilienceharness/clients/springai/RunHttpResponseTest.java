package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's answer as openai-java reads it: the status and headers of a fault reach the team's code. */
class RunHttpResponseTest {

    @TempDir
    Path dir;

    @Test
    void aRetryAfterTooLongForThePolicyReachesTheLoopInTheSdksExceptionHeaders() throws Exception {
        Workspace ws = Workspace.in(dir);
        var result = ws.rehearsal(() -> new TeamLoop(HarnessSpringAiTest.NO_SDK_RETRIES))
                .check(ws.scenario("quota-retry-after-10m"), 1, dev.resilienceharness.scenario.Rehearsal.RUN_INVARIANTS);
        Outcome stopped = result.trace().outcomes().get(0);
        assertEquals(Status.STOPPED, stopped.status());
        assertEquals("600", stopped.retryAfter());
        assertEquals(1, result.trace().calls().size());
    }

    @Test
    void aServerErrorReachesTheLoopAsItsStatus() throws Exception {
        Workspace ws = Workspace.in(dir);
        var result = ws.rehearsal(() -> new TeamLoop(HarnessSpringAiTest.NO_SDK_RETRIES))
                .check(ws.scenario("server-errors"), 1, dev.resilienceharness.scenario.Rehearsal.RUN_INVARIANTS);
        assertEquals(3, result.trace().calls().size());
        result.trace().calls().forEach(c -> assertEquals(503, c.status()));
        assertEquals("timeout", result.trace().outcomes().get(0).reason());
    }
}
