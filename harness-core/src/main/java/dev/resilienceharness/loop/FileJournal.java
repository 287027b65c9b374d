package dev.resilienceharness.loop;

import static org.apiguardian.api.API.Status.MAINTAINED;

import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * A journal in a JSON Lines file: one outcome record per line (and, between them, checkpoints of the op in
 * flight: {@code {"checkpoint": "<op>", "attempts": 2, ...}}), appended and fsynced per record, so a process
 * killed at any moment loses at most the line it was writing. A torn last line (no newline, or not JSON) is
 * ignored with a warning and cut off before the next append.
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class FileJournal implements Journal {

    private final Path file;
    private final List<Outcome> outcomes = new ArrayList<>();
    private final java.util.Map<String, Progress> progress = new java.util.HashMap<>();
    private long validLength;

    private FileJournal(Path file) {
        this.file = file;
    }

    /**
     * Opens (or creates) the journal at {@code file}, reading what an earlier process recorded.
     *
     * @param warnings receives one sentence per torn line ignored
     * @throws IOException when the file cannot be read, or a complete line in the middle is not an outcome
     */
    public static FileJournal open(Path file, Consumer<String> warnings) throws IOException {
        FileJournal journal = new FileJournal(file);
        if (Files.exists(file)) {
            journal.load(Files.readAllBytes(file), warnings);
        }
        return journal;
    }

    private void load(byte[] bytes, Consumer<String> warnings) throws IOException {
        int start = 0;
        int lineNo = 0;
        while (start < bytes.length) {
            lineNo++;
            int nl = indexOf(bytes, (byte) '\n', start);
            boolean complete = nl >= 0;
            int end = complete ? nl : bytes.length;
            String line = new String(bytes, start, end - start, StandardCharsets.UTF_8).strip();
            if (!line.isEmpty()) {
                try {
                    apply(Json.readTree(line.getBytes(StandardCharsets.UTF_8)));
                } catch (RuntimeException e) {
                    if (!complete) {
                        warnings.accept(file + ":" + lineNo + ": ignoring a torn last journal line (the process"
                                + " stopped while writing it); that op will run again");
                        return;
                    }
                    throw new IOException(file + ":" + lineNo + ": not a journal record: " + e.getMessage()
                            + ". Delete the journal to start the run afresh");
                }
                if (!complete) {
                    // A whole record without its newline: keep it, and end the line before the next append.
                    validLength = bytes.length;
                    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.APPEND)) {
                        ch.write(ByteBuffer.wrap(new byte[] {'\n'}));
                        ch.force(true);
                    }
                    validLength++;
                    return;
                }
            }
            start = end + 1;
            validLength = start;
        }
    }

    /** Takes in one line: an outcome record, or a checkpoint of the op in flight. */
    private void apply(tools.jackson.databind.JsonNode node) {
        if (node.has(CHECKPOINT)) {
            progress.put(node.get(CHECKPOINT).asString(), new Progress(node.path("attempts").asInt(),
                    node.path("transient_failures").asInt(), node.path("repairs").asInt(),
                    node.path("quota_retried").asBoolean()));
            return;
        }
        Outcome outcome = Outcome.fromJson(node);
        outcomes.add(outcome);
        progress.remove(outcome.op());
    }

    private static final String CHECKPOINT = "checkpoint";

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    public Path file() {
        return file;
    }

    @Override
    public List<Outcome> completed() {
        return Collections.unmodifiableList(new ArrayList<>(outcomes));
    }

    @Override
    public void record(Outcome outcome) {
        append(Json.compact(outcome.toJson()));
        outcomes.add(outcome);
        progress.remove(outcome.op());
    }

    @Override
    public void checkpoint(String op, Progress p) {
        tools.jackson.databind.node.ObjectNode node = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        node.put(CHECKPOINT, op);
        node.put("attempts", p.attempts());
        node.put("transient_failures", p.transientFailures());
        node.put("repairs", p.repairs());
        node.put("quota_retried", p.quotaRetried());
        append(Json.compact(node));
        progress.put(op, p);
    }

    @Override
    public Progress progress(String op) {
        return progress.getOrDefault(op, Progress.NONE);
    }

    private void append(String record) {
        byte[] line = (record + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                // Appending at the last good record drops a torn tail left by a killed process.
                ch.truncate(validLength);
                ch.position(validLength);
                ByteBuffer buf = ByteBuffer.wrap(line);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot append to the journal: " + e.getMessage(), e);
        }
        validLength += line.length;
    }
}
