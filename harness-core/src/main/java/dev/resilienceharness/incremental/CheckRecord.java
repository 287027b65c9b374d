package dev.resilienceharness.incremental;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * What a full check found, remembered beside a digest of everything it read, so that a build in which nothing
 * changed delivers the verdict again instead of checking 10,000 cassettes.
 *
 * <p>The digest ({@link #inputs}) is SHA-256 over the engine's identity and the goal's options, the yaml's path and
 * bytes, the cassette folder's path, the name of every entry in it with the SHA-256 of its bytes, and the baseline
 * file's path and bytes. Contents are compared, not file times, so a cassette copied back with its old modification
 * time, or edited twice within one clock tick, still counts as changed; keeping file status to avoid hashing them saved
 * nothing measurable on the benchmark corpus (bench/README.md). A full check
 * that is to be remembered takes the same digest from its own pass instead ({@link PassDigest}), which reads every
 * cassette anyway. Whatever the yaml
 * names is found through the record's own {@link #cassettes} and {@link #baseline}: while the yaml's bytes are the
 * same, so are they, and the yaml need not be parsed to know that nothing changed.
 *
 * <p>Only a check whose results are a function of these files is recorded: the built-in loop's runs are (the
 * virtual clock and the seeded volatile values make them so); a team's loop is code the digest does not cover, so the
 * goal does not record a check that runs one.
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
@API(status = INTERNAL, since = "0.1.0")
public record CheckRecord(String inputs, Path cassettes, Path baseline, int cassetteCount, int scenarioCount,
        int scannedFiles, int findings, List<String> warnings, List<Violation> violations) {

    /** The record's format; a record of another format is not used. */
    static final int FORMAT = 1;

    private static final JsonFactory JSON = new JsonFactory();

    public CheckRecord {
        warnings = List.copyOf(warnings);
        violations = List.copyOf(violations);
    }

    /**
     * The digest of everything a check of {@code yaml} reads, as a hex string. A file that cannot be read is digested
     * as unreadable, for the check itself to report.
     *
     * @param identity  the engine's identity and the options that change the outcome, as the goal spells them
     * @param cassettes the cassette folder
     * @param baseline  the baseline file, or {@code null}
     * @throws IOException when the cassette folder exists but cannot be listed
     */
    public static String inputs(String identity, Path yaml, Path cassettes, Path baseline) throws IOException {
        List<Path> entries = InputDigest.entries(cassettes);
        // Reading and hashing the cassettes is the whole cost of an unchanged build: both cores share it.
        String[] digests = InputDigest.ofAll(entries);
        return inputs(identity, yaml, InputDigest.of(yaml), cassettes, entries, digests, baseline,
                baseline == null ? "" : InputDigest.of(baseline));
    }

    /** The digest of the fields {@link #inputs(String, Path, Path, Path)} names, each entry's digest given. */
    static String inputs(String identity, Path yaml, String yamlDigest, Path cassettes, List<Path> entries,
            String[] digests, Path baseline, String baselineDigest) {
        InputDigest all = new InputDigest()
                .field("resilience-check-inputs/" + FORMAT)
                .field(identity)
                .field(yaml.toAbsolutePath().toString())
                .field(yamlDigest)
                .field(cassettes.toAbsolutePath().toString());
        for (int i = 0; i < entries.size(); i++) {
            all.field(entries.get(i).getFileName().toString()).field(digests[i]);
        }
        all.field(baseline == null ? "no baseline" : baseline.toAbsolutePath().toString());
        all.field(baselineDigest);
        return all.hex();
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
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), bytes)) {
            return new Reader(p).record();
        } catch (JacksonException e) {
            throw new IOException("not a check record: " + e.getOriginalMessage(), e);
        } catch (IllegalArgumentException | IOException e) {
            throw new IOException("not a check record: " + e.getMessage(), e);
        }
    }

    /** Writes the record to {@code file} whole or not at all. */
    public void write(Path file) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            g.writeNumberProperty("format", FORMAT);
            g.writeStringProperty("inputs", inputs);
            g.writeStringProperty("cassettes", cassettes.toString());
            g.writeStringProperty("baseline", baseline == null ? null : baseline.toString());
            g.writeNumberProperty("cassetteCount", cassetteCount);
            g.writeNumberProperty("scenarioCount", scenarioCount);
            g.writeNumberProperty("scannedFiles", scannedFiles);
            g.writeNumberProperty("findings", findings);
            g.writeArrayPropertyStart("warnings");
            for (String w : warnings) {
                g.writeString(w);
            }
            g.writeEndArray();
            g.writeArrayPropertyStart("violations");
            for (Violation v : violations) {
                g.writeStartObject();
                g.writeStringProperty("invariant", v.invariant().id());
                g.writeStringProperty("subject", v.subject());
                g.writeStringProperty("op", v.op());
                g.writeStringProperty("bound", v.bound());
                g.writeStringProperty("actual", v.actual());
                g.writeStringProperty("message", v.message());
                g.writeStringProperty("hint", v.hint());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.write('\n');
        Files.createDirectories(file.toAbsolutePath().getParent());
        AtomicFiles.write(file, out.toByteArray());
    }

    /** Reads a record with the streaming parser: no object mapper is built for one small file. */
    private static final class Reader {

        private final JsonParser p;

        Reader(JsonParser p) {
            this.p = p;
        }

        CheckRecord record() throws IOException {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            Integer format = null;
            String inputs = null;
            String cassettes = null;
            String baseline = null;
            int[] counts = {-1, -1, -1, -1};
            List<String> warnings = null;
            List<Violation> violations = null;
            String name;
            while ((name = p.nextName()) != null) {
                JsonToken t = p.nextToken();
                switch (name) {
                    case "format" -> format = integer(t);
                    case "inputs" -> inputs = text(t);
                    case "cassettes" -> cassettes = text(t);
                    case "baseline" -> baseline = t == JsonToken.VALUE_NULL ? null : text(t);
                    case "cassetteCount" -> counts[0] = integer(t);
                    case "scenarioCount" -> counts[1] = integer(t);
                    case "scannedFiles" -> counts[2] = integer(t);
                    case "findings" -> counts[3] = integer(t);
                    case "warnings" -> warnings = warnings(t);
                    case "violations" -> violations = violations(t);
                    default -> p.skipChildren();
                }
                if (format != null && format != FORMAT) {
                    return null;
                }
            }
            if (format == null || inputs == null || cassettes == null || warnings == null || violations == null
                    || counts[0] < 0 || counts[1] < 0 || counts[2] < 0 || counts[3] < 0) {
                throw new IOException("a field is missing");
            }
            return new CheckRecord(inputs, Path.of(cassettes), baseline == null ? null : Path.of(baseline), counts[0],
                    counts[1], counts[2], counts[3], warnings, violations);
        }

        private List<String> warnings(JsonToken start) throws IOException {
            expect(start, JsonToken.START_ARRAY);
            List<String> warnings = new ArrayList<>();
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                warnings.add(text(t));
            }
            return warnings;
        }

        private List<Violation> violations(JsonToken start) throws IOException {
            expect(start, JsonToken.START_ARRAY);
            List<Violation> violations = new ArrayList<>();
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                expect(t, JsonToken.START_OBJECT);
                Map<String, String> fields = new HashMap<>();
                String name;
                while ((name = p.nextName()) != null) {
                    JsonToken v = p.nextToken();
                    fields.put(name, v == JsonToken.VALUE_NULL ? null : text(v));
                }
                Invariant invariant = Invariant.fromId(String.valueOf(fields.get("invariant")));
                if (invariant == null || fields.get("subject") == null || fields.get("message") == null) {
                    throw new IOException("a violation lacks its invariant, subject or message");
                }
                violations.add(new Violation(invariant, fields.get("subject"), fields.get("op"), fields.get("bound"),
                        fields.get("actual"), fields.get("message"), fields.get("hint")));
            }
            return violations;
        }

        private String text(JsonToken t) throws IOException {
            expect(t, JsonToken.VALUE_STRING);
            return p.getString();
        }

        private int integer(JsonToken t) throws IOException {
            expect(t, JsonToken.VALUE_NUMBER_INT);
            return p.getIntValue();
        }

        private void expect(JsonToken actual, JsonToken wanted) throws IOException {
            if (actual != wanted) {
                throw new IOException("expected " + wanted + " but found " + actual + " at "
                        + p.currentLocation().offsetDescription());
            }
        }
    }
}
