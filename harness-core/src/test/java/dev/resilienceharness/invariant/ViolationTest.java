package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ViolationTest {

    @Test
    void a_full_line_names_where_what_bound_actual_and_what_to_do() {
        Violation v = new Violation(Invariant.BUDGET, "quota-stops", "review", "1 call", "4 calls",
                "more calls than the policy allows", "Retry less");
        assertEquals("quota-stops [budget] op 'review': more calls than the policy allows (bound 1 call, actual 4"
                + " calls). Retry less", v.line());
    }

    @Test
    void parts_that_are_absent_are_left_out() {
        assertEquals("s [partial_work]: outcomes are out of order",
                new Violation(Invariant.PARTIAL_WORK, "s", null, null, null, "outcomes are out of order", null).line());
        assertEquals("f.json [cassettes] op 'plan': broken. Fix it",
                new Violation(Invariant.CASSETTES, "f.json", "plan", null, null, "broken", "Fix it").line());
    }

    @Test
    void a_missing_bound_or_actual_shows_a_dash() {
        assertEquals("s [bounded_wait]: cut short (bound 3000 ms, actual -)",
                new Violation(Invariant.BOUNDED_WAIT, "s", null, "3000 ms", null, "cut short", null).line());
        assertEquals("s [budget]: x (bound -, actual 3 calls)",
                new Violation(Invariant.BUDGET, "s", null, null, "3 calls", "x", null).line());
    }

    @Test
    void every_invariant_prints_its_report_id() {
        for (Invariant i : Invariant.values()) {
            assertEquals("s [" + i.id() + "]: m", new Violation(i, "s", null, null, null, "m", null).line());
            assertEquals(i, Invariant.fromId(i.id()));
        }
    }

    @Test
    void invariant_subject_and_message_are_required() {
        assertThrows(NullPointerException.class, () -> new Violation(null, "s", null, null, null, "m", null));
        assertThrows(NullPointerException.class, () -> new Violation(Invariant.BUDGET, null, null, null, null, "m", null));
        assertThrows(NullPointerException.class, () -> new Violation(Invariant.BUDGET, "s", null, null, null, null, null));
    }
}
