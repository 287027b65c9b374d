package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.files.BoundedFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Findings a team has accepted, by fingerprint, so that only new ones fail the build. Because a fingerprint
 * hashes the rule and the secret, not its place, the baseline survives re-recording and reformatting.
 *
 * <p>The file is JSON, written sorted by fingerprint so it diffs well; {@code rule} and {@code masked} are there
 * for the reader and ignored when read:
 * <pre>{@code
 * {
 *   "version" : 1,
 *   "accepted" : [ {
 *     "fingerprint" : "0123456789abcdef",
 *     "rule" : "email-address",
 *     "masked" : "jane****"
 *   } ]
 * }
 * }</pre>
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Baseline {

    /** The format version this class reads and writes. */
    public static final int VERSION = 1;

    /** Built on first use: only a project with a baseline file reads or writes one. */
    private static final class Mapper {
        static final JsonMapper MAPPER = JsonMapper.builder().build();
    }

    /** Fingerprint to the entry's (rule, masked) note, sorted. */
    private final Map<String, String[]> accepted;

    private Baseline(Map<String, String[]> accepted) {
        this.accepted = Collections.unmodifiableMap(new TreeMap<>(accepted));
    }

    /** A baseline that accepts nothing. */
    public static Baseline empty() {
        return new Baseline(Map.of());
    }

    /** A baseline accepting exactly these findings. */
    public static Baseline of(Collection<Finding> findings) {
        Map<String, String[]> accepted = new TreeMap<>();
        for (Finding f : findings) {
            accepted.putIfAbsent(f.fingerprint(), new String[] {f.ruleId(), f.masked()});
        }
        return new Baseline(accepted);
    }

    /** The cassette reader's bound: a baseline lists accepted findings, a few lines each. */
    static final long MAX_BYTES = 16L << 20;

    /**
     * Reads a baseline file.
     *
     * @throws IOException            when the file cannot be read
     * @throws MalformedJsonException when it is not a baseline; names the file and what is wrong
     */
    public static Baseline read(Path file) throws IOException, MalformedJsonException {
        byte[] bytes = BoundedFile.read(file, MAX_BYTES);
        JsonNode root;
        try {
            root = Mapper.MAPPER.readTree(bytes);
        } catch (JacksonException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            int column = e.getLocation() == null ? 0 : e.getLocation().getColumnNr();
            throw new MalformedJsonException(file, Math.max(line, 0), Math.max(column, 0),
                    "not valid JSON; fix the baseline file or delete it and write a new one");
        }
        if (root == null || !root.isObject()) {
            throw shape(file, "must be a JSON object with \"version\": 1 and an \"accepted\" array");
        }
        JsonNode version = root.get("version");
        if (version == null || !version.isIntegralNumber() || version.asInt() != VERSION) {
            throw shape(file, "\"version\" must be " + VERSION);
        }
        JsonNode entries = root.get("accepted");
        if (entries == null || !entries.isArray()) {
            throw shape(file, "\"accepted\" must be an array");
        }
        Map<String, String[]> accepted = new TreeMap<>();
        for (int i = 0; i < entries.size(); i++) {
            JsonNode entry = entries.get(i);
            JsonNode fingerprint = entry.isObject() ? entry.get("fingerprint") : null;
            if (fingerprint == null || !fingerprint.isString() || !Finding.isFingerprint(fingerprint.asString())) {
                throw shape(file, "accepted[" + i + "].fingerprint must be 16 lowercase hex digits");
            }
            accepted.putIfAbsent(fingerprint.asString(),
                    new String[] {text(entry.get("rule")), masked(entry.get("masked"))});
        }
        return new Baseline(accepted);
    }

    /** Writes the baseline atomically (temporary file, fsync, rename), so a crash never leaves half of it. */
    public void write(Path file) throws IOException {
        ObjectNode root = Mapper.MAPPER.createObjectNode();
        root.put("version", VERSION);
        ArrayNode entries = root.putArray("accepted");
        for (Map.Entry<String, String[]> e : accepted.entrySet()) {
            ObjectNode entry = entries.addObject();
            entry.put("fingerprint", e.getKey());
            if (e.getValue()[0] != null) {
                entry.put("rule", e.getValue()[0]);
            }
            if (e.getValue()[1] != null) {
                entry.put("masked", e.getValue()[1]);
            }
        }
        String json = Mapper.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        dev.resilienceharness.cassette.AtomicFiles.write(file, json.getBytes(StandardCharsets.UTF_8));
    }

    /** Whether {@code finding} is accepted. */
    public boolean accepts(Finding finding) {
        return accepted.containsKey(finding.fingerprint());
    }

    /** The findings this baseline does not accept, in their order. */
    public List<Finding> unaccepted(List<Finding> findings) {
        List<Finding> out = new ArrayList<>();
        for (Finding f : findings) {
            if (!accepts(f)) {
                out.add(f);
            }
        }
        return out;
    }

    /** The accepted fingerprints, sorted. */
    public Set<String> fingerprints() {
        return accepted.keySet();
    }

    private static String text(JsonNode node) {
        return node != null && node.isString() ? node.asString() : null;
    }

    /** A note kept only when it has the masked shape, so a hand-edited file cannot carry a secret through. */
    private static String masked(JsonNode node) {
        String text = text(node);
        return text != null && text.endsWith("****") && text.length() <= 8 ? text : null;
    }

    private static MalformedJsonException shape(Path file, String detail) {
        return new MalformedJsonException(file, 0, 0, "not a baseline file: " + detail
                + "; fix the baseline file or delete it and write a new one");
    }
}
