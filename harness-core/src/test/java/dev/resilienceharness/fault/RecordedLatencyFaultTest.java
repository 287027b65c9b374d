package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.transport.Reply;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecordedLatencyFaultTest {

    private final RecordedLatencyFault fault = RecordedLatencyFault.INSTANCE;

    @Test
    void isWrittenAsLatencyRecorded() {
        assertEquals("latency", fault.kind());
        assertEquals(Map.of("latency", "recorded"), fault.toYaml());
    }

    @Test
    void aStreamedSampleDelaysTheFirstTokenAndAnotherTheWholeAnswer() {
        assertEquals(new SlowFirstTokenFault(420), fault.draw(List.of(new Timing(420L, 1800L)), "ab", 0));
        assertEquals(new SlowFirstTokenFault(1800), fault.draw(List.of(new Timing(null, 1800L)), "ab", 0));
        assertEquals(NoFault.INSTANCE, fault.draw(List.of(new Timing(null, null)), "ab", 0));
    }

    @Test
    void theDrawnSampleKeepsBothTimesAndTheBodyIsCompleteAfterTheTotal() {
        List<Timing> samples = List.of(new Timing(420L, 1800L), new Timing(null, 900L), new Timing(300L, 300L));
        for (int call = 0; call < 20; call++) {
            Timing t = fault.sample(samples, "ab", call);
            Long first = t.firstTokenMs() != null ? t.firstTokenMs() : t.totalMs();
            assertEquals(new SlowFirstTokenFault(first), fault.draw(samples, "ab", call), "draw delays by the sample");
        }
        assertEquals(1800L, RecordedLatencyFault.bodyCompleteMs(new Timing(420L, 1800L), 420));
        assertEquals(null, RecordedLatencyFault.bodyCompleteMs(new Timing(null, 900L), 900), "whole at its first byte");
        assertEquals(null, RecordedLatencyFault.bodyCompleteMs(new Timing(300L, 300L), 300));
        assertEquals(null, RecordedLatencyFault.bodyCompleteMs(new Timing(300L, null), 300));
        assertEquals(null, RecordedLatencyFault.bodyCompleteMs(null, 0));
        assertEquals(null, fault.sample(List.of(), "ab", 0));
    }

    @Test
    void withoutSamplesTheRecordedAnswerComesAsItIs() {
        assertEquals(NoFault.INSTANCE, fault.draw(List.of(), "ab", 3));
        Reply recorded = Reply.of(Json.readTree("{}")).arrivingAfter(5);
        assertEquals(recorded, fault.strike("plan", recorded));
    }

    @Test
    void theDrawIsSeededByRequestAndCallAndCoversTheSamples() {
        List<Timing> samples = List.of(new Timing(null, 100L), new Timing(null, 200L), new Timing(null, 300L));
        Set<Fault> seen = new HashSet<>();
        for (int call = 0; call < 60; call++) {
            Fault drawn = fault.draw(samples, "0123456789abcdef", call);
            assertEquals(drawn, fault.draw(samples, "0123456789abcdef", call));
            seen.add(drawn);
        }
        assertEquals(Set.of(new SlowFirstTokenFault(100), new SlowFirstTokenFault(200), new SlowFirstTokenFault(300)),
                seen);
    }
}
