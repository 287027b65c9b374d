package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.live.RecordSummary.Entry;
import dev.resilienceharness.live.RecordSummary.Result;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordSummaryTest {

    @Test
    void linesAndTotal() {
        RecordSummary s = new RecordSummary(List.of(
                new Entry("plan", "aaaa", Result.RECORDED, "cassettes/aaaa.json (first token 420 ms)"),
                new Entry("patch", "bbbb", Result.PRESENT, "(cassettes/bbbb.json)"),
                new Entry("review", "cccc", Result.FAILED, "transient: the provider answered 503; record again")));
        assertEquals(List.of("plan: recorded cassettes/aaaa.json (first token 420 ms)",
                "patch: already present (cassettes/bbbb.json)",
                "review: FAILED transient: the provider answered 503; record again"),
                s.entries().stream().map(Entry::line).toList());
        assertEquals("3 ops: 1 recorded, 1 already present, 1 failed", s.total());
        assertEquals(1, s.failures().size());
        RecordSummary one = new RecordSummary(List.of(new Entry("x", "f", Result.RECORDED, null)));
        assertEquals("1 op: 1 recorded, 0 already present, 0 failed", one.total());
        assertEquals("x: recorded", one.entries().get(0).line());
    }
}
