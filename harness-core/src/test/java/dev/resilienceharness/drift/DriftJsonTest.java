package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class DriftJsonTest {

    @TempDir
    Path dir;

    @Test
    void writesTotalsAndEachChangeAtomically() throws Exception {
        Change removed = new Change(ChangeKind.REMOVED, "choices[0].message.tool_calls", "array", null);
        DriftResult result = new DriftResult(List.of(new DriftResult.Entry("cassettes/ab.json", "plan",
                DriftResult.Status.DRIFTED, List.of(removed), null, new Timing(null, 40L), new Timing(null, 45L),
                false)), "stopped");
        Path file = DriftJson.write(dir.resolve("out"), result);
        assertEquals(dir.resolve("out/drift.json"), file);
        JsonNode json = Json.readTree(Files.readString(file));
        assertEquals(1, json.get("checked").asInt());
        assertEquals(1, json.get("drifted").asInt());
        assertEquals(0, json.get("not_sent").asInt());
        assertEquals("stopped", json.get("stopped_by").asString());
        JsonNode change = json.get("cassettes").get(0).get("changes").get(0);
        assertEquals("removed", change.get("kind").asString());
        assertEquals("choices[0].message.tool_calls", change.get("path").asString());
        assertEquals("array", change.get("recorded").asString());
        assertEquals(true, change.get("live").isNull());
        assertEquals("choices[0].message.tool_calls: removed (the cassette has an array)",
                change.get("message").asString());
        assertEquals(45, json.get("cassettes").get(0).get("live_timing").get("total_ms").asInt());
        try (var s = Files.list(dir.resolve("out"))) {
            assertEquals(1, s.count(), "no temporary file is left");
        }
    }
}
