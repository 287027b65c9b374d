package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CassetteMissTest {

    @Test
    void names_the_op_the_fingerprint_the_nearest_request_and_where_it_differs() {
        CassetteMiss miss = new CassetteMiss("patch", "0123456789abcdef", "fedcba9876543210.json",
                List.of("messages[0].content", "model"));
        assertEquals("no cassette for op 'patch': looked for 0123456789abcdef.json; the nearest recorded request is"
                + " fedcba9876543210.json, which differs at messages[0].content, model. Run mvn resilience:record to"
                + " record it", miss.getMessage());
        assertEquals("patch", miss.op());
        assertEquals("0123456789abcdef", miss.fingerprint());
        assertEquals("fedcba9876543210.json", miss.nearestFile());
        assertEquals(List.of("messages[0].content", "model"), miss.differingPaths());
    }

    @Test
    void an_empty_folder_is_said_to_hold_no_cassette() {
        CassetteMiss miss = new CassetteMiss("plan", "0123456789abcdef", null, List.of());
        assertEquals("no cassette for op 'plan': looked for 0123456789abcdef.json; the cassette folder holds no"
                + " cassette. Run mvn resilience:record to record it", miss.getMessage());
        assertNull(miss.nearestFile());
    }

    @Test
    void shows_at_most_eight_differing_paths_and_counts_the_rest() {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            paths.add("p" + i);
        }
        CassetteMiss miss = new CassetteMiss("plan", "0123456789abcdef", "a.json", paths);
        assertEquals("no cassette for op 'plan': looked for 0123456789abcdef.json; the nearest recorded request is"
                + " a.json, which differs at p0, p1, p2, p3, p4, p5, p6, p7 and 3 more. Run mvn resilience:record to"
                + " record it", miss.getMessage());
        assertEquals(11, miss.differingPaths().size(), "the accessor keeps every path");
    }

    @Test
    void eight_paths_are_all_shown() {
        List<String> paths = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        assertEquals("no cassette for op 'plan': looked for x.json; the nearest recorded request is n.json, which"
                + " differs at a, b, c, d, e, f, g, h. Run mvn resilience:record to record it",
                new CassetteMiss("plan", "x", "n.json", paths).getMessage());
    }

    @Test
    void the_paths_are_a_copy_nobody_can_change() {
        List<String> paths = new ArrayList<>(List.of("model"));
        CassetteMiss miss = new CassetteMiss("plan", "x", "n.json", paths);
        paths.add("op");
        assertEquals(List.of("model"), miss.differingPaths());
        assertThrows(UnsupportedOperationException.class, () -> miss.differingPaths().add("op"));
    }
}
