package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class OutcomeTest {

    private static final JsonNode VALUE = Json.readTree("{\"done\": \"plan\", \"n\": [1, 2]}");

    @Test
    void an_ok_record_has_op_status_value_attempts_in_that_order() {
        assertEquals("{\"op\":\"plan\",\"status\":\"ok\",\"value\":{\"done\":\"plan\",\"n\":[1,2]},\"attempts\":2}",
                Json.compact(Outcome.ok("plan", VALUE, 2).toJson()));
    }

    @Test
    void a_slow_ok_record_adds_elapsed_ms_and_concurrency_last() {
        assertEquals("{\"op\":\"plan\",\"status\":\"ok\",\"value\":{\"done\":\"plan\",\"n\":[1,2]},\"attempts\":1,"
                + "\"elapsed_ms\":3500,\"concurrency\":2}", Json.compact(Outcome.ok("plan", VALUE, 1).slow(3500, 2).toJson()));
    }

    @Test
    void an_ok_record_without_a_value_shows_null() {
        assertEquals("{\"op\":\"plan\",\"status\":\"ok\",\"value\":null,\"attempts\":1}",
                Json.compact(Outcome.ok("plan", null, 1).toJson()));
    }

    @Test
    void a_skipped_op_is_degraded_for_reason_skipped_with_no_attempts() {
        assertEquals("{\"op\":\"patch\",\"status\":\"degraded\",\"reason\":\"skipped\",\"attempts\":0}",
                Json.compact(Outcome.skipped("patch").toJson()));
        assertEquals(Outcome.degraded("patch", "skipped", 0), Outcome.skipped("patch"));
        assertEquals(Outcome.skipped("patch"), Outcome.fromJson(Outcome.skipped("patch").toJson()));
    }

    @Test
    void a_degraded_record_has_op_status_reason_attempts() {
        assertEquals("{\"op\":\"patch\",\"status\":\"degraded\",\"reason\":\"timeout\",\"attempts\":3}",
                Json.compact(Outcome.degraded("patch", "timeout", 3).toJson()));
        assertEquals("{\"op\":\"patch\",\"status\":\"degraded\",\"reason\":\"schema\",\"attempts\":2}",
                Json.compact(Outcome.degraded("patch", "schema", 2).toJson()));
    }

    @Test
    void a_stopped_record_always_shows_retry_after_null_when_absent() {
        assertEquals("{\"op\":\"review\",\"status\":\"stopped\",\"reason\":\"quota\",\"retry_after\":null,\"attempts\":1}",
                Json.compact(Outcome.stopped("review", null, 1).toJson()));
        assertEquals("{\"op\":\"review\",\"status\":\"stopped\",\"reason\":\"quota\",\"retry_after\":\"1.5\","
                + "\"attempts\":2}", Json.compact(Outcome.stopped("review", "1.5", 2).toJson()));
    }

    @Test
    void every_kind_of_record_reads_back_equal() {
        for (Outcome o : List.of(Outcome.ok("plan", VALUE, 2), Outcome.ok("plan", VALUE, 1).slow(9000, 1),
                Outcome.degraded("patch", "schema", 2), Outcome.stopped("review", null, 1),
                Outcome.stopped("review", "Thu, 01 Jan 2026 00:00:30 GMT", 2))) {
            Outcome back = Outcome.fromJson(Json.readTree(Json.compact(o.toJson())));
            assertEquals(o, back);
            assertEquals(Json.compact(o.toJson()), Json.compact(back.toJson()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1]", "\"ok\"", "null", "{}", "{\"status\": \"ok\"}", "{\"op\": 7, \"status\": \"ok\"}",
            "{\"op\": \"plan\"}", "{\"op\": \"plan\", \"status\": \"failed\"}", "{\"op\": \"plan\", \"status\": null}",
            "{\"op\": \"plan\", \"status\": \"OK\"}"})
    void anything_but_an_outcome_record_is_refused(String json) {
        assertThrows(IllegalArgumentException.class, () -> Outcome.fromJson(Json.readTree(json)));
    }

    @Test
    void a_missing_node_is_refused_with_a_sentence() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Outcome.fromJson(null));
        assertEquals("an outcome record must be a JSON object", e.getMessage());
        IllegalArgumentException noOp = assertThrows(IllegalArgumentException.class,
                () -> Outcome.fromJson(Json.readTree("{\"status\": \"ok\"}")));
        assertEquals("an outcome record needs a string 'op' and a status of ok, degraded or stopped", noOp.getMessage());
    }
}
