package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.concurrent.Ahead;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.JsonDiff;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A folder of cassettes named by fingerprint (docs cassettes.md), read lazily and written atomically. Safe for
 * concurrent use: reads are cached per fingerprint; two writers of one fingerprint write the same bytes. Other
 * processes may record into the same folder at the same time: each write replaces a file whole, the last one
 * winning. A temporary file that a killed write left behind is ignored, never deleted: it might belong to a
 * write still running in another process (see {@link #leftoverTemporaryFiles()}).
 */
@API(status = INTERNAL, since = "0.1.0")
public final class CassetteStore {

    /** Calls the provider for real; used in record modes. */
    @FunctionalInterface
    public interface LiveCall {
        /** Sends {@code request} and returns the cassette content to write (response and optional timing). */
        Recorded call(ObjectNode request) throws IOException;
    }

    /**
     * What a live call brought back.
     *
     * @param stream the events of a streamed answer with their arrival offsets, or {@code null}
     */
    public record Recorded(JsonNode response, Timing timing, CassetteStream stream) {

        /** An answer that was not streamed. */
        public Recorded(JsonNode response, Timing timing) {
            this(response, timing, null);
        }
    }

    private final Path folder;
    private final VolatilePaths volatilePaths;
    private final Mode mode;
    private final CassetteReader reader;
    private final UnaryOperator<ObjectNode> beforeWrite;
    private final Map<String, Cassette> cache = new ConcurrentHashMap<>();
    private final java.time.Clock recordedAt;
    /** Built by the first look-up that needs it ({@link #inAnyToolOrder}), never before; guarded by {@code this}. */
    private volatile ToolOrderIndex toolOrder;

    /**
     * @param folder        the cassette folder
     * @param volatilePaths stripped before fingerprinting and before anything is written
     * @param mode          replay, record or record-missing
     * @param beforeWrite   last change to a cassette before it touches disk (the recorder's redaction)
     */
    public CassetteStore(Path folder, VolatilePaths volatilePaths, Mode mode, UnaryOperator<ObjectNode> beforeWrite) {
        this(folder, volatilePaths, mode, beforeWrite, null);
    }

    /**
     * A store whose writes carry {@code recorded_at}, the time {@code recordedAt} tells to the second ({@code null}:
     * none).
     */
    public CassetteStore(Path folder, VolatilePaths volatilePaths, Mode mode, UnaryOperator<ObjectNode> beforeWrite,
            java.time.Clock recordedAt) {
        this.recordedAt = recordedAt;
        this.folder = Objects.requireNonNull(folder, "folder");
        this.volatilePaths = Objects.requireNonNull(volatilePaths, "volatilePaths");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.reader = new CassetteReader(folder, volatilePaths);
        this.beforeWrite = Objects.requireNonNull(beforeWrite, "beforeWrite");
    }

    /** A replay-only store. */
    public static CassetteStore replaying(Path folder, VolatilePaths volatilePaths) {
        return new CassetteStore(folder, volatilePaths, Mode.REPLAY, UnaryOperator.identity());
    }

    public Path folder() {
        return folder;
    }

    public Mode mode() {
        return mode;
    }

    public VolatilePaths volatilePaths() {
        return volatilePaths;
    }

    /** The file a request's cassette lives in. */
    public Path fileFor(String fingerprint) {
        return folder.resolve(fingerprint + ".json");
    }

    /** The fingerprint of {@code request} after volatile request paths are removed. */
    public String fingerprint(ObjectNode request) {
        return CassetteReader.fingerprint(request, volatilePaths);
    }

    /** Every {@code *.json} file in the folder, sorted by name; empty when the folder does not exist. */
    public List<Path> files() throws IOException {
        return listing().cassettes();
    }

    /**
     * Temporary files in the folder that writes killed mid-way left behind (see {@link AtomicFiles}), sorted by
     * name; they are never read as cassettes.
     */
    public List<Path> leftoverTemporaryFiles() throws IOException {
        return listing().leftovers();
    }

    /**
     * What one listing of the folder finds, each list sorted by name.
     *
     * @param cassettes the {@code *.json} files, as {@link #files()} lists them
     * @param leftovers the temporary files interrupted writes left, as {@link #leftoverTemporaryFiles()} lists them
     * @param others    every other entry: the check reads none of them, but the digest of what it read names them
     */
    public record Listing(List<Path> cassettes, List<Path> leftovers, List<Path> others) {

        /** Every entry of the folder, sorted by name: what the digest of a check's inputs names. */
        public List<Path> entries() {
            List<Path> all = new ArrayList<>(cassettes.size() + leftovers.size() + others.size());
            all.addAll(cassettes);
            all.addAll(leftovers);
            all.addAll(others);
            all.sort(null);
            return all;
        }
    }

    /**
     * The folder's cassettes and leftover temporary files from one listing: a pass that needs both reads a folder of
     * ten thousand entries once. A folder that does not exist lists nothing.
     *
     * @throws IOException when the cassette folder is a file, or cannot be listed
     */
    public Listing listing() throws IOException {
        return listingOf(folder);
    }

    /**
     * {@link #listing()} of {@code folder}, taken on a thread of its own while the caller goes on: a cold JVM takes
     * tens of milliseconds to list and sort ten thousand entries, which the check's JVM spends while it still reads its
     * yaml. The future ends with the {@link IOException} the listing met, if any.
     */
    public static Future<Listing> listingAhead(Path folder) {
        return Ahead.begin("resilience-listing", () -> listingOf(folder));
    }

    /** {@link #listing()} of {@code folder}, for what needs no store. */
    public static Listing listingOf(Path folder) throws IOException {
        List<Path> files = new ArrayList<>();
        List<Path> leftovers = new ArrayList<>();
        List<Path> others = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            for (Path p : ds) {
                // What the glob *.json matches, without a pattern match per entry.
                if (p.getFileName().toString().endsWith(".json")) {
                    files.add(p);
                } else if (AtomicFiles.isTemporary(p)) {
                    leftovers.add(p);
                } else {
                    others.add(p);
                }
            }
        } catch (NoSuchFileException e) {
            return new Listing(List.of(), List.of(), List.of());
        } catch (NotDirectoryException e) {
            throw new IOException("it is a file, not a folder; point cassettes: in resilience.yaml at the cassette"
                    + " folder", e);
        }
        files.sort(null);
        leftovers.sort(null);
        others.sort(null);
        return new Listing(files, leftovers, others);
    }

    /** The cassette stored under {@code fingerprint}, or {@code null} when there is no such file. */
    public Cassette get(String fingerprint) throws CassetteException {
        Cassette cached = cache.get(fingerprint);
        if (cached != null) {
            return cached;
        }
        Path file = fileFor(fingerprint);
        if (!Files.exists(file)) {
            return null;
        }
        Cassette c = reader.read(file);
        cache.put(fingerprint, c);
        return c;
    }

    /**
     * The cassette answering {@code request} for {@code op}.
     *
     * @throws CassetteMiss when there is none (replay), naming the nearest recorded request
     */
    public Cassette replay(String op, ObjectNode request) throws CassetteException {
        String fp = fingerprint(request);
        Cassette c = get(fp);
        if (c == null) {
            throw miss(op, fp, request);
        }
        return c;
    }

    /**
     * The cassette answering {@code request}: the one its fingerprint names, else one recorded for the same request
     * with its tools in another order ({@link #inAnyToolOrder}); {@code null} when there is none.
     */
    public Cassette find(ObjectNode request) throws CassetteException {
        Cassette c = get(fingerprint(request));
        return c != null ? c : inAnyToolOrder(request);
    }

    /**
     * The cassette recorded for {@code request} with its tools in another order (docs cassettes.md, "Tool order"),
     * or {@code null}. The second look-up, for when the request's own fingerprint names no file: the first call that
     * needs it indexes the folder by the fingerprint of each cassette's request with its tools in canonical order; of
     * two that would answer, the one whose file name sorts first does. A request with fewer than two tools has no
     * other order: it is {@code null} at once, and no index is built for it.
     */
    public Cassette inAnyToolOrder(ObjectNode request) throws CassetteException {
        Path file = fileInAnyToolOrder(request);
        // Indexed files are named by their fingerprint: the exact look-up reads (and caches) the same file.
        return file == null ? null : get(fingerprintOf(file));
    }

    /**
     * The file of the cassette {@link #inAnyToolOrder} finds, without reading it; {@code null} when there is none.
     * The file is named by its own request's fingerprint ({@link #fingerprintOf}).
     */
    public Path fileInAnyToolOrder(ObjectNode request) {
        String key = ToolOrder.fingerprint(request, volatilePaths);
        return key == null ? null : toolOrderIndex().get(key);
    }

    /**
     * The fingerprint of {@code request} with its volatile paths removed and its tools in canonical order: the same
     * for every order of the same tools, and the name of no file; {@code null} when the request has fewer than two
     * tools.
     */
    public String toolOrderFingerprint(ObjectNode request) {
        return ToolOrder.fingerprint(request, volatilePaths);
    }

    /** The fingerprint a cassette file is named by: its name without {@code .json}. */
    public static String fingerprintOf(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
    }

    /**
     * Whether the tool-order index has been built: only once a request's own fingerprint named no file and the
     * request had tools that could have come in another order.
     */
    public boolean toolOrderIndexed() {
        return toolOrder != null;
    }

    /**
     * Makes a cassette that another store over this folder has just written known to this store's look-ups, as one
     * it wrote itself would be (the scenario run records through a store of its own).
     */
    public void written(Cassette cassette) {
        indexWritten(cassette);
    }

    private ToolOrderIndex toolOrderIndex() {
        ToolOrderIndex made = toolOrder;
        if (made == null) {
            synchronized (this) {
                made = toolOrder;
                if (made == null) {
                    List<Path> files;
                    try {
                        files = files();
                    } catch (IOException e) {
                        // A folder that cannot be listed answers nothing in either look-up; the miss says so.
                        files = List.of();
                    }
                    made = ToolOrderIndex.of(files, reader, volatilePaths);
                    toolOrder = made;
                }
            }
        }
        return made;
    }

    /** Adds a cassette just written to the tool-order index, once that exists; waits for one being built. */
    private void indexWritten(Cassette c) {
        if (!ToolOrder.reorderable(c.request()) || !c.file().getFileName().toString().equals(c.fingerprint()
                + ".json")) {
            return;
        }
        String key = ToolOrder.fingerprint(c.request(), volatilePaths);
        if (key == null) {
            return;
        }
        synchronized (this) {
            if (toolOrder != null) {
                toolOrder.add(key, c.file());
            }
        }
    }

    /**
     * Answers {@code request} by this store's mode: from the cassette, or by calling {@code live} and writing
     * what comes back.
     */
    public Cassette exchange(String op, ObjectNode request, LiveCall live) throws CassetteException, IOException {
        return exchange(op, request, live, false);
    }

    /**
     * As {@link #exchange(String, ObjectNode, LiveCall)}, but in replay and record-missing a cassette recorded for
     * the request with its tools in another order answers it too ({@link #find}), and nothing is recorded for it.
     */
    public Cassette exchangeInAnyToolOrder(String op, ObjectNode request, LiveCall live) throws CassetteException,
            IOException {
        return exchange(op, request, live, true);
    }

    private Cassette exchange(String op, ObjectNode request, LiveCall live, boolean anyToolOrder)
            throws CassetteException, IOException {
        String fp = fingerprint(request);
        if (mode != Mode.RECORD) {
            Cassette c = anyToolOrder ? find(request) : get(fp);
            if (c != null) {
                return c;
            }
            if (mode == Mode.REPLAY) {
                throw miss(op, fp, request);
            }
        }
        Recorded recorded = live.call(request.deepCopy());
        return write(request, recorded.response(), recorded.timing(), null, recorded.stream());
    }

    /** Writes one exchange atomically, volatile paths stripped and {@code beforeWrite} applied first. */
    public Cassette write(ObjectNode request, JsonNode response, Timing timing) throws IOException {
        return write(request, response, timing, null);
    }

    /**
     * Writes one exchange atomically, labelled with the op it was recorded for ({@code null}: no label), volatile
     * paths stripped and {@code beforeWrite} applied first.
     */
    public Cassette write(ObjectNode request, JsonNode response, Timing timing, String op) throws IOException {
        return write(request, response, timing, op, null);
    }

    /**
     * Writes one exchange atomically, with the events of a streamed answer ({@code null}: not streamed), volatile
     * paths stripped (inside every event too) and {@code beforeWrite} applied first (so secrets are redacted inside
     * the events as anywhere else).
     */
    public Cassette write(ObjectNode request, JsonNode response, Timing timing, String op, CassetteStream stream)
            throws IOException {
        ObjectNode cassette = JsonNodeFactory.instance.objectNode();
        if (op != null) {
            cassette.put("op", op);
        }
        cassette.set("request", request.deepCopy());
        cassette.set("response", response.deepCopy());
        if (timing != null) {
            cassette.set("timing", timing.toJson());
        }
        if (recordedAt != null) {
            cassette.put("recorded_at", recordedAt.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                    .toString());
        }
        if (stream != null) {
            cassette.set(CassetteStream.KEY, stream.toJson());
        }
        volatilePaths.strip(cassette);
        CassetteStream.stripVolatile(cassette, volatilePaths);
        cassette = beforeWrite.apply(cassette);
        ObjectNode req = (ObjectNode) cassette.get("request");
        String fp = fingerprint(req);
        Path file = fileFor(fp);
        AtomicFiles.write(file, Json.prettyPrint(cassette).getBytes(StandardCharsets.UTF_8));
        JsonNode at = cassette.get("recorded_at");
        Cassette c = new Cassette(file, fp, req, cassette.get("response"), Timing.fromJson(cassette.get("timing")), op,
                at != null && at.isString() ? java.time.Instant.parse(at.asString()) : null,
                CassetteStream.fromJson(cassette.get(CassetteStream.KEY)));
        cache.put(fp, c);
        indexWritten(c);
        return c;
    }

    /** The miss for {@code request}: the error replay raises, naming the nearest recorded request. */
    public CassetteMiss miss(String op, String fingerprint, ObjectNode request) {
        Path nearest = null;
        List<String> nearestPaths = List.of();
        try {
            for (Path file : files()) {
                Cassette c;
                try {
                    c = reader.read(file);
                } catch (CassetteException e) {
                    continue;
                }
                List<String> diff = JsonDiff.paths(c.request(), request);
                if (nearest == null || diff.size() < nearestPaths.size()) {
                    nearest = file;
                    nearestPaths = diff;
                }
            }
        } catch (IOException e) {
            // The miss itself is the error worth reporting; a folder that cannot be listed just has no nearest.
        }
        return new CassetteMiss(op, fingerprint, nearest == null ? null : nearest.getFileName().toString(),
                nearestPaths);
    }
}
