package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShapeDiffTest {

    private static List<String> diff(String a, String b) {
        return ShapeDiff.between(Json.readTree(a), Json.readTree(b)).stream().map(Change::line).toList();
    }

    @Test
    void equalShapesWithOtherValuesDoNotDiffer() {
        assertEquals(List.of(), diff("{\"a\": \"x\", \"n\": 1, \"l\": [1, 2]}", "{\"a\": \"y\", \"n\": 2.5, \"l\": [3, 4]}"));
    }

    @Test
    void addedRemovedAndRetypedPathsAreNamed() {
        assertEquals(List.of("a.b: removed (the cassette has a number)", "a.c: was a string, is now an array",
                "a.d: added (a boolean in the live answer)"),
                diff("{\"a\": {\"b\": 1, \"c\": \"x\"}}", "{\"a\": {\"c\": [], \"d\": true}}"));
    }

    @Test
    void arrayElementsAreComparedByIndex() {
        assertEquals(List.of("l[0].k: removed (the cassette has a string)", "l[2]: added (an object in the live answer)"),
                diff("{\"l\": [{\"k\": \"v\"}, {}]}", "{\"l\": [{}, {}, {}]}"));
        assertEquals(List.of("l[1]: removed (the cassette has a number)"), diff("{\"l\": [1, 2]}", "{\"l\": [1]}"));
    }

    @Test
    void aWholeAnswerOfAnotherTypeIsNamedAtTheRoot() {
        assertEquals(List.of("$: was an object, is now an array"), diff("{}", "[]"));
    }
}
