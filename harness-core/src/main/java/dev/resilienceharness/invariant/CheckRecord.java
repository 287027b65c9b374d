package dev.resilienceharness.invariant;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.IntStream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a full check found, remembered beside a digest of everything it read, so that a build in which nothing
 * changed replays the verdict instead of checking 10,000 cassettes again.
 *
 * <p>The digest ({@link #inputs}) is SHA-256 over the engine's identity and the goal's options, the yaml's path and
 * bytes, the cassette folder's path, the name of every entry in it and the bytes of every file, and the baseline
 * file's path and bytes. Contents are compared, not modification times, so a cassette copied back with its old
 * timestamp, or edited within the same second, is still noticed. Whatever the yaml names is found through the
 * record's own {@link #cassettes} and {@link #baseline}: while the yaml's bytes are the same, so are they, and the
 * yaml need not be parsed to know that nothing changed.
 *
 * <p>Only a check whose results are a function of those files is recorded: the built-in loop's runs are (the virtual
 * clock and the seeded volatile values make them so); a team's loop is code the digest does not cover, so the goal
 * does not record a check that runs one.
 *
 * @param inputs        the digest of the inputs, as {@link #inputs} computes it
 * @param cassettes     the cassette folder the yaml named
 * @param baseline      the secrets baseline file the yaml named, or {@code null}
 * @param cassetteCount cassette files checked
 * @param scenarioCount scenarios run (0 when cassette violations kept them from running)
 * @param scannedFiles  cassette files scanned for secrets
 * @param findings      secret findings reported
 * @param warnings      the warnings the check logged, in order
 * @param violations    every violation, in the order the check reported them
 */
public record CheckRecord(String inputs, Path cassettes, Path baseline, int cassetteCount, int scenarioCount,
        int scannedFiles, int findings, List<String> warnings, List<Violation> violations) {

    /** The record's format; a record of another format is not used. */
    static final int FORMAT = 1;

    public CheckRecord {
        warnings = List.copyOf(warnings);
        violations = List.copyOf(violations);
    }

    /**
     * The digest of everything a check of {@code yaml} reads, as a hex string.
     *
     * @param identity  the engine's identity and the options that change the outcome, as the goal spells them
     * @param cassettes the cassette folder
     * @param baseline  the baseline file, or {@code null}
     * @throws IOException when a file cannot be read
     */
    public static String inputs(String identity, Path yaml, Path cassettes, Path baseline) throws IOException {
        MessageDigest all = sha256();
        field(all, "resilience-check-inputs/" + FORMAT);
        field(all, identity);
        field(all, yaml.toAbsolutePath().toString());
        field(all, fileDigest(yaml));
        field(all, cassettes.toAbsolutePath().toString());
        List<Path> entries = entries(cassettes);
        String[] digests = new String[entries.size()];
        // Reading and hashing 30 MB of cassettes is the whole cost of an unchanged build: both cores share it.
        IntStream.range(0, entries.size()).parallel().forEach(i -> digests[i] = entryDigest(entries.get(i)));
        for (int i = 0; i < entries.size(); i++) {
            field(all, entries.get(i).getFileName().toString());
            field(all, digests[i]);
        }
        field(all, baseline == null ? "no baseline" : baseline.toAbsolutePath().toString());
        field(all, baseline == null ? "" : fileDigest(baseline));
        return HexFormat.of().formatHex(all.digest());
    }

    /**
     * The record in {@code file}, or {@code null} when there is none or it is not one this version wrote.
     *
     * @throws IOException when the file exists but cannot be read or is not a record
     */
    public static CheckRecord read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
        try {
            JsonNode root = Json.readTree(bytes);
            if (root.path("format").asInt(0) != FORMAT) {
                return null;
            }
            List<String> warnings = new ArrayList<>();
            root.required("warnings").forEach(w -> warnings.add(w.asString()));
            List<Violation> violations = new ArrayList<>();
            for (JsonNode v : root.required("violations")) {
                Invariant invariant = Invariant.fromId(v.required("invariant").asString());
                if (invariant == null) {
                    throw new IOException("unknown invariant " + v.get("invariant"));
                }
                violations.add(new Violation(invariant, v.required("subject").asString(), text(v, "op"),
                        text(v, "bound"), text(v, "actual"), v.required("message").asString(), text(v, "hint")));
            }
            String baseline = text(root, "baseline");
            return new CheckRecord(root.required("inputs").asString(), Path.of(root.required("cassettes").asString()),
                    baseline == null ? null : Path.of(baseline), root.required("cassetteCount").asInt(),
                    root.required("scenarioCount").asInt(), root.required("scannedFiles").asInt(),
                    root.required("findings").asInt(), warnings, violations);
        } catch (JacksonException | IllegalArgumentException e) {
            throw new IOException("not a check record: " + e.getMessage(), e);
        }
    }

    /** Writes the record to {@code file} whole or not at all. */
    public void write(Path file) throws IOException {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("format", FORMAT);
        root.put("inputs", inputs);
        root.put("cassettes", cassettes.toString());
        root.put("baseline", baseline == null ? null : baseline.toString());
        root.put("cassetteCount", cassetteCount);
        root.put("scenarioCount", scenarioCount);
        root.put("scannedFiles", scannedFiles);
        root.put("findings", findings);
        ArrayNode w = root.putArray("warnings");
        warnings.forEach(w::add);
        ArrayNode vs = root.putArray("violations");
        for (Violation v : violations) {
            ObjectNode o = vs.addObject();
            o.put("invariant", v.invariant().id());
            o.put("subject", v.subject());
            o.put("op", v.op());
            o.put("bound", v.bound());
            o.put("actual", v.actual());
            o.put("message", v.message());
            o.put("hint", v.hint());
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        AtomicFiles.write(file, (Json.prettyPrint(root) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asString();
    }

    /** Every entry of the folder, sorted by name; none when it does not exist. */
    private static List<Path> entries(Path folder) throws IOException {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            ds.forEach(entries::add);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return List.of();
        }
        entries.sort(null);
        return entries;
    }

    private static String entryDigest(Path entry) {
        if (Files.isDirectory(entry)) {
            return "folder";
        }
        try {
            return fileDigest(entry);
        } catch (IOException e) {
            // The check reports an unreadable cassette itself; what matters here is that it is not the same file.
            return "unreadable: " + e.getMessage();
        }
    }

    private static final ThreadLocal<ByteBuffer> BUFFERS = ThreadLocal.withInitial(() -> ByteBuffer.allocate(1 << 16));

    private static String fileDigest(Path file) throws IOException {
        MessageDigest md = sha256();
        ByteBuffer buffer = BUFFERS.get();
        try (FileChannel ch = FileChannel.open(file)) {
            buffer.clear();
            while (ch.read(buffer) >= 0) {
                buffer.flip();
                md.update(buffer);
                buffer.clear();
            }
        } catch (NoSuchFileException e) {
            return "absent";
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static void field(MessageDigest md, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        md.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        md.update(bytes);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
