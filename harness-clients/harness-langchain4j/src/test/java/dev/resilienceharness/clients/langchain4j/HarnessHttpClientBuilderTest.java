package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.langchain4j.exception.TimeoutException;
import dev.resilienceharness.clock.VirtualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HarnessHttpClientBuilderTest {

    @TempDir
    Path dir;

    @Test
    void itKeepsTheTimeoutsTheModelSets() throws Exception {
        Probe.run(dir, "calm", run -> {
            HarnessHttpClientBuilder builder = new HarnessHttpClientBuilder(run.http(), new SdkRetries(), run::waited);
            assertNull(builder.connectTimeout());
            assertNull(builder.readTimeout());
            assertSame(builder, builder.connectTimeout(Duration.ofSeconds(15)).readTimeout(Duration.ofSeconds(60)));
            assertEquals(Duration.ofSeconds(15), builder.connectTimeout());
            assertEquals(Duration.ofSeconds(60), builder.readTimeout());
        });
    }

    @Test
    void theModelsTimeoutIsTheOneATimeoutFaultCosts() throws Exception {
        AtomicReference<Instant> after = new AtomicReference<>();
        Probe.run(dir, "timeout", run -> {
            var model = HarnessLangChain4j.builder(run).modelName("gpt-4o-mini").maxRetries(0)
                    .timeout(Duration.ofSeconds(9)).build();
            assertThrows(TimeoutException.class, () -> model.chat("plan the fix"));
            after.set(run.now());
        });
        assertEquals(VirtualClock.EPOCH.plusSeconds(9), after.get());
    }

    @Test
    void withoutATimeoutTheModelsDefaultReadTimeoutOf60sApplies() throws Exception {
        AtomicReference<Instant> after = new AtomicReference<>();
        Probe.run(dir, "timeout", run -> {
            var model = HarnessLangChain4j.builder(run).modelName("gpt-4o-mini").maxRetries(0).build();
            assertThrows(TimeoutException.class, () -> model.chat("plan the fix"));
            after.set(run.now());
        });
        assertEquals(VirtualClock.EPOCH.plusSeconds(60), after.get());
    }
}
