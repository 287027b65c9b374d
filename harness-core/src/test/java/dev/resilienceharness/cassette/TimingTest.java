package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.resilienceharness.json.Json;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class TimingTest {

    @Test
    void reads_both_figures() {
        assertEquals(new Timing(420L, 1800L), Timing.fromJson(Json.readTree("{\"first_token_ms\": 420, \"total_ms\": 1800}")));
    }

    @Test
    void samples_are_read_and_written_back() {
        Timing t = new Timing(420L, 1800L, java.util.List.of(new Timing(420L, 1800L), new Timing(null, 2500L)));
        String json = "{\"first_token_ms\":420,\"total_ms\":1800,\"samples\":[{\"first_token_ms\":420,"
                + "\"total_ms\":1800},{\"total_ms\":2500}]}";
        assertEquals(json, Json.compact(t.toJson()));
        assertEquals(t, Timing.fromJson(Json.readTree(json)));
        assertEquals(java.util.List.of(), new Timing(1L, 2L).samples());
        assertEquals(t, new Timing(420L, 1800L).withSamples(t.samples()));
    }

    @Test
    void a_missing_timing_is_none() {
        assertNull(Timing.fromJson(null));
        assertNull(Timing.fromJson(JsonNodeFactory.instance.nullNode()));
    }

    @Test
    void a_figure_that_is_absent_or_not_a_number_is_unknown() {
        assertEquals(new Timing(null, 1800L), Timing.fromJson(Json.readTree("{\"total_ms\": 1800}")));
        assertEquals(new Timing(null, null),
                Timing.fromJson(Json.readTree("{\"first_token_ms\": \"420\", \"total_ms\": null}")));
    }

    @Test
    void fractional_milliseconds_are_rounded() {
        assertEquals(new Timing(421L, 1800L),
                Timing.fromJson(Json.readTree("{\"first_token_ms\": 420.6, \"total_ms\": 1799.5}")));
    }

    @Test
    void writes_only_the_known_figures() {
        assertEquals("{\"first_token_ms\":420,\"total_ms\":1800}", Json.compact(new Timing(420L, 1800L).toJson()));
        assertEquals("{\"total_ms\":1800}", Json.compact(new Timing(null, 1800L).toJson()));
        assertEquals("{}", Json.compact(new Timing(null, null).toJson()));
    }

    @Test
    void the_recorded_first_token_time_reaches_the_reply() {
        var request = JsonNodeFactory.instance.objectNode().put("op", "plan");
        var response = JsonNodeFactory.instance.objectNode().put("done", "plan");
        Path file = Path.of("c.json");
        assertEquals(OptionalLong.of(420),
                new Cassette(file, "0123456789abcdef", request, response, new Timing(420L, 1800L)).reply().firstTokenMs());
        assertEquals(OptionalLong.empty(),
                new Cassette(file, "0123456789abcdef", request, response, new Timing(null, 1800L)).reply().firstTokenMs());
        assertEquals(OptionalLong.empty(),
                new Cassette(file, "0123456789abcdef", request, response, null).reply().firstTokenMs());
    }
}
