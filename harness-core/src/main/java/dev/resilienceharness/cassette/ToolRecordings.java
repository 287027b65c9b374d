package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.JsonDiff;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The recordings of {@code replay: recorded} tools (docs cassettes.md): the folder {@code tools/} inside the cassette
 * folder, one file per logical call named by its fingerprint ({@link ToolRecording#fingerprint}), holding
 * {@code tool}, {@code arguments}, {@code result} and {@code recorded_at}. Read lazily and cached per fingerprint,
 * written atomically ({@link AtomicFiles}) after the recorder's redaction; safe for concurrent use.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ToolRecordings {

    /** The folder inside the cassette folder that holds the tool recordings. */
    public static final String FOLDER = "tools";

    static final String SHAPE = "a tool recording is {\"tool\": \"...\", \"arguments\": ..., \"result\": \"...\"}";

    /** What a file that is no tool recording is reported with. */
    static String notARecording(String what) {
        return what + "; " + SHAPE;
    }

    /** What a tool recording under another call's name is reported with. */
    public static final String MISNAMED = "the file name is not its tool call's fingerprint";

    private final Path folder;
    private final CassetteReader reader;
    private final UnaryOperator<ObjectNode> beforeWrite;
    private final Clock recordedAt;
    private final Map<String, ToolRecording> cache = new ConcurrentHashMap<>();

    private ToolRecordings(Path cassettes, UnaryOperator<ObjectNode> beforeWrite, Clock recordedAt) {
        this.folder = folderOf(cassettes);
        // The cassette folder bounds what a symbolic link may lead to, as for the cassettes themselves.
        this.reader = new CassetteReader(cassettes, VolatilePaths.of(java.util.List.of()));
        this.beforeWrite = beforeWrite;
        this.recordedAt = recordedAt;
    }

    /** The recordings in {@code cassettes}, read only: a rehearsal's. */
    public static ToolRecordings replaying(Path cassettes) {
        return new ToolRecordings(cassettes, null, null);
    }

    /**
     * The recordings in {@code cassettes}, into which {@link #write} writes what {@code redaction} makes of each,
     * stamped with the time {@code recordedAt} tells ({@code null}: no {@code recorded_at}).
     */
    public static ToolRecordings recording(Path cassettes, UnaryOperator<ObjectNode> redaction, Clock recordedAt) {
        return new ToolRecordings(cassettes, Objects.requireNonNull(redaction, "redaction"), recordedAt);
    }

    /** The folder of tool recordings inside {@code cassettes}. */
    public static Path folderOf(Path cassettes) {
        return cassettes.resolve(FOLDER);
    }

    public Path folder() {
        return folder;
    }

    /** The file the recording of the call with {@code fingerprint} lives in. */
    public Path fileFor(String fingerprint) {
        return folder.resolve(fingerprint + ".json");
    }

    /**
     * The recording of the call with {@code fingerprint}, or {@code null} when there is no such file.
     *
     * @throws CassetteException when the file cannot be read or is no tool recording
     */
    public ToolRecording get(String fingerprint) throws CassetteException {
        ToolRecording cached = cache.get(fingerprint);
        if (cached != null) {
            return cached;
        }
        Path file = fileFor(fingerprint);
        if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        ToolRecording read = parse(file, reader.readTree(file, reader.readBytes(file)));
        cache.put(fingerprint, read);
        return read;
    }

    /**
     * A recording of the same tool nearest to a call no recording answers.
     *
     * @param fingerprint    the nearest recording's fingerprint (its file name without {@code .json})
     * @param differingPaths the paths at which its arguments differ from the call's (never the values)
     */
    public record Nearest(String fingerprint, List<String> differingPaths) {
    }

    /**
     * The recording of {@code tool} whose arguments differ from {@code arguments} at the fewest paths (the first in
     * file name order on a tie), or {@code null} when no readable recording of that tool is in the folder. Files that
     * cannot be read are passed over: the miss is the error worth reporting.
     */
    public Nearest nearest(String tool, JsonNode arguments) {
        List<Path> files;
        try (Stream<Path> listed = Files.list(folder)) {
            files = listed.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            return null;
        }
        Nearest nearest = null;
        for (Path file : files) {
            ToolRecording recording;
            try {
                recording = parse(file, reader.readTree(file, reader.readBytes(file)));
            } catch (CassetteException e) {
                continue;
            }
            if (!recording.tool().equals(tool)) {
                continue;
            }
            List<String> diff = JsonDiff.paths(recording.arguments(), arguments);
            if (nearest == null || diff.size() < nearest.differingPaths().size()) {
                nearest = new Nearest(recording.fingerprint(), diff);
            }
        }
        return nearest;
    }

    /**
     * Writes the recording of one call atomically, after the recorder's redaction, under the fingerprint of what is
     * written: arguments that carried a secret are written redacted, and so under another name than the call's.
     *
     * @param arguments the parsed arguments, or a JSON string holding arguments that are not JSON
     * @return what was written
     * @throws IllegalStateException when this store only replays
     * @throws IOException           when the file cannot be written
     */
    public ToolRecording write(String tool, JsonNode arguments, String result) throws IOException {
        if (beforeWrite == null) {
            throw new IllegalStateException("a replaying store of tool recordings writes nothing");
        }
        ObjectNode content = JsonNodeFactory.instance.objectNode().put("tool", tool);
        content.set("arguments", arguments.deepCopy());
        content.put("result", result);
        if (recordedAt != null) {
            content.put("recorded_at", recordedAt.instant().truncatedTo(ChronoUnit.SECONDS).toString());
        }
        ObjectNode redacted = beforeWrite.apply(content);
        String fingerprint = ToolRecording.fingerprint(redacted.get("tool").asString(), redacted.get("arguments"));
        Path file = fileFor(fingerprint);
        AtomicFiles.write(file, Json.prettyPrint(redacted).getBytes(StandardCharsets.UTF_8));
        JsonNode at = redacted.get("recorded_at");
        ToolRecording written = new ToolRecording(file, fingerprint, redacted.get("tool").asString(),
                redacted.get("arguments"), redacted.get("result").asString(),
                at == null ? null : Instant.parse(at.asString()));
        cache.put(fingerprint, written);
        return written;
    }

    /**
     * The tool recording in {@code root}, the tree {@link CassetteReader#readTree} read from {@code file}; its
     * fingerprint is that of its own tool and arguments, whatever the file's name.
     */
    public static ToolRecording parse(Path file, JsonNode root) throws CassetteException {
        if (!root.isObject()) {
            throw new CassetteException(file, notARecording("is a JSON " + CassetteMessages.kind(root)
                    + ", not an object"), CassetteMessages.HINT_FIX);
        }
        JsonNode tool = root.get("tool");
        if (tool == null || !tool.isString() || tool.asString().isEmpty()) {
            throw new CassetteException(file, notARecording(tool == null ? "has no \"tool\""
                    : "has a \"tool\" that is no tool name"), CassetteMessages.HINT_FIX);
        }
        JsonNode arguments = root.get("arguments");
        if (arguments == null) {
            throw new CassetteException(file, notARecording("has no \"arguments\""), CassetteMessages.HINT_FIX);
        }
        JsonNode result = root.get("result");
        if (result == null || !result.isString()) {
            throw new CassetteException(file, notARecording(result == null ? "has no \"result\""
                    : "has a \"result\" that is a JSON " + CassetteMessages.kind(result) + ", not the result's text"),
                    CassetteMessages.HINT_FIX);
        }
        Instant at = null;
        JsonNode stamp = root.get("recorded_at");
        if (stamp != null && !stamp.isNull()) {
            try {
                at = Instant.parse(stamp.asString());
            } catch (DateTimeParseException | IllegalArgumentException e) {
                throw new CassetteException(file, CassetteMessages.badRecordedAt("'"
                        + CassetteMessages.abbreviate(stamp.toString()) + "'"), CassetteMessages.HINT_FIX);
            }
        }
        String fingerprint;
        try {
            fingerprint = ToolRecording.fingerprint(tool.asString(), arguments);
        } catch (IllegalArgumentException e) {
            throw new CassetteException(file, "has arguments with no canonical JSON form: " + e.getMessage(),
                    CassetteMessages.HINT_FIX);
        }
        return new ToolRecording(file, fingerprint, tool.asString(), arguments, result.asString(), at);
    }
}
