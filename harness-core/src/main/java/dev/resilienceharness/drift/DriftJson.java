package dev.resilienceharness.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Writes {@code drift.json}: totals, then each cassette with its status and changes, each change by JSON path. */
@API(status = INTERNAL, since = "0.1.0")
public final class DriftJson {

    /** The file's name in the report folder. */
    public static final String FILE_NAME = "drift.json";

    private DriftJson() {
    }

    /** The report as JSON. */
    public static ObjectNode toJson(DriftResult result) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("checked", result.count(DriftResult.Status.UNCHANGED) + result.count(DriftResult.Status.DRIFTED));
        for (DriftResult.Status s : DriftResult.Status.values()) {
            root.put(s.jsonName(), result.count(s));
        }
        if (result.stoppedBy() == null) {
            root.putNull("stopped_by");
        } else {
            root.put("stopped_by", result.stoppedBy());
        }
        ArrayNode cassettes = root.putArray("cassettes");
        for (DriftResult.Entry e : result.entries()) {
            ObjectNode c = cassettes.addObject();
            c.put("cassette", e.cassette());
            c.put("op", e.op());
            c.put("status", e.status().jsonName());
            if (e.detail() != null) {
                c.put("detail", e.detail());
            }
            timing(c, "recorded_timing", e.recordedTiming());
            timing(c, "live_timing", e.liveTiming());
            c.put("updated", e.updated());
            ArrayNode changes = c.putArray("changes");
            for (Change ch : e.changes()) {
                ObjectNode o = changes.addObject();
                o.put("kind", ch.kind().jsonName());
                o.put("path", ch.path());
                o.put("recorded", ch.recorded());
                o.put("live", ch.live());
                o.put("message", ch.line());
            }
        }
        return root;
    }

    private static void timing(ObjectNode c, String key, Timing t) {
        if (t != null) {
            c.set(key, t.toJson());
        }
    }

    /** Writes {@code drift.json} into {@code folder} atomically and returns its path. */
    public static Path write(Path folder, DriftResult result) throws IOException {
        Path file = folder.resolve(FILE_NAME);
        AtomicFiles.write(file, (Json.prettyPrint(toJson(result)) + "\n").getBytes(StandardCharsets.UTF_8));
        return file;
    }
}
