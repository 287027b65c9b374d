package dev.resilienceharness.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.cassette.CassetteMessages;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.files.BoundedFile;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code shard.json}, written beside a sharded run's reports: which shard of how many it was, the digest of the
 * inputs it ran on ({@link ShardInputs}), and where each of its scenarios stands in the yaml, so that a merge can
 * tell a missing, duplicated or foreign shard and put the scenarios back in the yaml's order.
 *
 * <p>It also names each of its scenarios' ops, every op's request fingerprint and the cassette folder: a cassette
 * saved under another op's fingerprint holds that op's scenarios back in an unsharded run, and only the merge, which
 * sees every shard's cassette violations, can hold back the scenarios of other shards that it names.
 *
 * @param shard        the shard
 * @param inputs       the digest of the inputs
 * @param positions    each of the shard's scenarios by name, with its 0-based position among the yaml's scenarios
 * @param ops          each of the shard's scenarios by name, with its ops
 * @param fingerprints every op of the yaml's scenarios, with its request's fingerprint
 * @param cassettes    the cassette folder, as the shard named it
 */
@API(status = INTERNAL, since = "0.1.0")
public record ShardMarker(Shard shard, String inputs, Map<String, Integer> positions, Map<String, List<String>> ops,
        Map<String, String> fingerprints, String cassettes) {

    /** The marker's file name. */
    public static final String FILE = "shard.json";

    private static final int FORMAT = 1;

    public ShardMarker {
        positions = Collections.unmodifiableMap(new LinkedHashMap<>(positions));
        ops = Collections.unmodifiableMap(new LinkedHashMap<>(ops));
        fingerprints = Collections.unmodifiableMap(new LinkedHashMap<>(fingerprints));
    }

    /**
     * The marker of {@code shard}'s part of {@code all}, the yaml's scenarios in order.
     *
     * @param fingerprints each op's request fingerprint, as the cassette integrity check worked them out
     */
    public static ShardMarker of(Shard shard, String inputs, List<Scenario> all, Map<String, String> fingerprints,
            Path cassettes) {
        Map<String, Integer> positions = new LinkedHashMap<>();
        Map<String, List<String>> ops = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            if (shard.owns(all.get(i).name())) {
                positions.put(all.get(i).name(), i);
                ops.put(all.get(i).name(), all.get(i).ops());
            }
        }
        return new ShardMarker(shard, inputs, positions, ops, fingerprints, cassettes.toString());
    }

    /** Writes the marker into {@code folder} atomically and returns its file. */
    public Path write(Path folder) throws IOException {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", FORMAT);
        root.put("shard", shard.toString());
        root.put("inputs", inputs);
        ObjectNode scenarios = root.putObject("scenarios");
        positions.forEach(scenarios::put);
        ObjectNode opsNode = root.putObject("ops");
        ops.forEach((name, list) -> list.forEach(opsNode.putArray(name)::add));
        ObjectNode fingerprintsNode = root.putObject("fingerprints");
        fingerprints.forEach(fingerprintsNode::put);
        root.put("cassettes", cassettes);
        Path file = folder.resolve(FILE);
        AtomicFiles.write(file, (Json.prettyPrint(root) + "\n").getBytes(StandardCharsets.UTF_8));
        return file;
    }

    /** A marker is a few lines; anything far larger is not one. */
    static final long MAX_BYTES = 1L << 20;

    /**
     * Reads the marker in {@code file}.
     *
     * @throws IOException naming what is wrong when it cannot be read or is not a marker this version writes
     */
    public static ShardMarker read(Path file) throws IOException {
        JsonNode root;
        try {
            root = Json.readTree(BoundedFile.read(file, MAX_BYTES));
        } catch (BoundedFile.Refused e) {
            if (e.missing()) {
                throw new java.nio.file.NoSuchFileException(file.toString());
            }
            throw e;
        } catch (JacksonException e) {
            var at = e.getLocation();
            throw new IOException("not JSON: " + CassetteMessages.jsonProblem(e.getOriginalMessage())
                    + (at == null || at.getLineNr() <= 0 ? "" : " (line " + at.getLineNr() + ")"));
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
        Map<String, List<String>> ops = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : object(root, "ops").properties()) {
            List<String> list = new ArrayList<>();
            for (JsonNode op : e.getValue()) {
                list.add(op.asString());
            }
            ops.put(e.getKey(), list);
        }
        Map<String, String> fingerprints = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : object(root, "fingerprints").properties()) {
            fingerprints.put(e.getKey(), e.getValue().asString());
        }
        return new ShardMarker(shard, inputs, positions, ops, fingerprints, root.path("cassettes").asString(""));
    }

    private static JsonNode object(JsonNode root, String key) throws IOException {
        JsonNode node = root.get(key);
        if (node == null || !node.isObject()) {
            throw new IOException("it has no '" + key + "' object");
        }
        return node;
    }
}
