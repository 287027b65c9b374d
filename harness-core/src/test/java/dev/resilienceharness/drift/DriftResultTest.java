package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DriftResultTest {

    private static DriftResult.Entry entry(DriftResult.Status status, List<Change> changes, String detail) {
        return new DriftResult.Entry("cassettes/ab.json", "plan", status, changes, detail, null, null, false);
    }

    @Test
    void eachStatusHasItsLines() {
        Change gone = new Change(ChangeKind.TOOL_CALL_GONE, "choices[0].message.tool_calls", "lookup", null);
        assertEquals(List.of("cassettes/ab.json (op plan): choices[0].message.tool_calls: the tool call is gone (the"
                + " cassette calls 'lookup')"), entry(DriftResult.Status.DRIFTED, List.of(gone), null).lines());
        assertEquals(List.of("cassettes/ab.json (op plan): no drift"),
                entry(DriftResult.Status.UNCHANGED, List.of(), null).lines());
        assertEquals(List.of("cassettes/ab.json (op plan): not sent: budget"),
                entry(DriftResult.Status.NOT_SENT, List.of(), "budget").lines());
        assertEquals(List.of("cassettes/ab.json (op plan): FAILED: 500"),
                entry(DriftResult.Status.FAILED, List.of(), "500").lines());
    }

    @Test
    void theTotalCountsEachStatus() {
        Change c = new Change(ChangeKind.ADDED, "x", null, "string");
        DriftResult r = new DriftResult(List.of(entry(DriftResult.Status.DRIFTED, List.of(c), null),
                entry(DriftResult.Status.UNCHANGED, List.of(), null),
                entry(DriftResult.Status.FAILED, List.of(), "timeout")), null);
        assertEquals("2 cassettes checked: 1 drifted, 1 unchanged, 1 failed", r.total());
        assertEquals(1, r.drifted().size());
    }
}
