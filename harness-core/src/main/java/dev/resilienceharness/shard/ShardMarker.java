package dev.resilienceharness.shard;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code shard.json}, written beside a sharded run's reports: which shard of how many it was, the digest of the
 * inputs it ran on ({@link ShardInputs}), and where each of its scenarios stands in the yaml, so that a merge can
 * tell a missing, duplicated or foreign shard and put the scenarios back in the yaml's order.
 *
 * @param shard     the shard
 * @param inputs    the digest of the inputs
 * @param positions each of the shard's scenarios by name, with its 0-based position among the yaml's scenarios
 */
public record ShardMarker(Shard shard, String inputs, Map<String, Integer> positions) {

    /** The marker's file name. */
    public static final String FILE = "shard.json";

    private static final int FORMAT = 1;

    public ShardMarker {
        positions = Collections.unmodifiableMap(new LinkedHashMap<>(positions));
    }

    /** The marker of {@code shard}'s part of {@code all}, the yaml's scenarios in order. */
    public static ShardMarker of(Shard shard, String inputs, List<Scenario> all) {
        Map<String, Integer> positions = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            if (shard.owns(all.get(i).name())) {
                positions.put(all.get(i).name(), i);
            }
        }
        return new ShardMarker(shard, inputs, positions);
    }

    /** Writes the marker into {@code folder} atomically and returns its file. */
    public Path write(Path folder) throws IOException {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", FORMAT);
        root.put("shard", shard.toString());
        root.put("inputs", inputs);
        ObjectNode scenarios = root.putObject("scenarios");
        positions.forEach(scenarios::put);
        Path file = folder.resolve(FILE);
        AtomicFiles.write(file, (Json.prettyPrint(root) + "\n").getBytes(StandardCharsets.UTF_8));
        return file;
    }

    /**
     * Reads the marker in {@code file}.
     *
     * @throws IOException naming what is wrong when it cannot be read or is not a marker this version writes
     */
    public static ShardMarker read(Path file) throws IOException {
        JsonNode root;
        try {
            root = Json.readTree(Files.readAllBytes(file));
        } catch (JacksonException e) {
            throw new IOException("not JSON: " + e.getOriginalMessage());
        }
        if (!root.isObject() || root.path("format").asInt(0) != FORMAT) {
            throw new IOException("not a shard marker of format " + FORMAT);
        }
        Shard shard;
        try {
            shard = Shard.parse(root.path("shard").asString(""));
        } catch (IllegalArgumentException e) {
            throw new IOException("its shard is '" + root.path("shard").asString("") + "', not K/N");
        }
        String inputs = root.path("inputs").asString("");
        if (inputs.isEmpty()) {
            throw new IOException("it names no inputs digest");
        }
        JsonNode scenarios = root.get("scenarios");
        if (scenarios == null || !scenarios.isObject()) {
            throw new IOException("it has no 'scenarios' object");
        }
        Map<String, Integer> positions = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : scenarios.properties()) {
            if (!e.getValue().isInt() || e.getValue().asInt() < 0) {
                throw new IOException("scenarios." + e.getKey() + " is not a position in the yaml");
            }
            positions.put(e.getKey(), e.getValue().asInt());
        }
        return new ShardMarker(shard, inputs, positions);
    }
}
