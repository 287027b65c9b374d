package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryJournalTest {

    @Test
    void starts_empty() {
        MemoryJournal journal = new MemoryJournal();
        assertEquals(List.of(), journal.completed());
        assertEquals(Journal.Progress.NONE, journal.progress("plan"));
    }

    @Test
    void keeps_recorded_outcomes_in_order() {
        MemoryJournal journal = new MemoryJournal();
        Outcome plan = Outcome.ok("plan", null, 1);
        Outcome patch = Outcome.degraded("patch", "timeout", 3);
        journal.record(plan);
        journal.record(patch);
        assertEquals(List.of(plan, patch), journal.completed());
    }

    @Test
    void completed_is_a_snapshot_nobody_can_change() {
        MemoryJournal journal = new MemoryJournal();
        journal.record(Outcome.ok("plan", null, 1));
        List<Outcome> before = journal.completed();
        journal.record(Outcome.ok("patch", null, 1));
        assertEquals(1, before.size(), "a later record does not show up in an earlier snapshot");
        assertThrows(UnsupportedOperationException.class, () -> journal.completed().add(Outcome.ok("x", null, 1)));
        assertEquals(2, journal.completed().size());
    }

    @Test
    void keeps_the_last_checkpoint_of_each_op_in_flight() {
        MemoryJournal journal = new MemoryJournal();
        journal.checkpoint("plan", new Journal.Progress(1, 1, 0, false));
        journal.checkpoint("plan", new Journal.Progress(2, 2, 0, false));
        journal.checkpoint("patch", new Journal.Progress(1, 0, 1, true));
        assertEquals(new Journal.Progress(2, 2, 0, false), journal.progress("plan"));
        assertEquals(new Journal.Progress(1, 0, 1, true), journal.progress("patch"));
    }

    @Test
    void recording_an_ops_outcome_clears_only_its_checkpoint() {
        MemoryJournal journal = new MemoryJournal();
        journal.checkpoint("plan", new Journal.Progress(2, 1, 0, false));
        journal.checkpoint("patch", new Journal.Progress(1, 0, 1, false));
        journal.record(Outcome.ok("plan", null, 3));
        assertEquals(Journal.Progress.NONE, journal.progress("plan"));
        assertEquals(new Journal.Progress(1, 0, 1, false), journal.progress("patch"));
    }
}
