package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.ToolRecording;
import dev.resilienceharness.cassette.ToolRecordings;
import dev.resilienceharness.concurrent.Indices;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.mcp.McpCassetteReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;
import java.util.function.Predicate;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Invariant 6, cassette integrity: every file parses, its name equals its request's fingerprint, no volatile
 * field remains, and every scenario op has a cassette; every recording of a {@code replay: recorded} tool (in
 * {@code tools/}) parses and is named by its call's fingerprint. Cassettes no scenario uses (nor a declared request or a
 * repair) are orphans: a warning, or
 * a violation when asked. Files are read one at a time on all cores and not kept, so memory stays flat.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class CassetteIntegrity {

    /**
     * What a pass tells of the folder it lists and the files it reads, for the digest the record of a remembered check
     * is taken from ({@code dev.resilienceharness.incremental.PassDigest}).
     */
    public interface Reads {

        /** The cassette folder this is to be told of; a pass over another one tells it nothing. */
        Path cassettes();

        /** The pass listed the cassette folder. */
        void listed(CassetteStore.Listing entries);

        /** The pass read {@code file} (from several threads at once). */
        void read(Path file, CassetteReader.FileBytes bytes);

        /** The pass could not read {@code file}. */
        void unread(Path file);
    }

    /**
     * What the check found.
     *
     * @param checked      cassette files read
     * @param violations   broken files and missing cassettes
     * @param warnings     orphan cassettes, when they are not errors
     * @param fingerprints the fingerprint of each op's request, in the order the scenarios first name the ops: with
     *                     no violation, every one names a cassette just read, and the runs need not work them out
     *                     again ({@code Rehearsal.prepareVerified})
     */
    public record Report(int checked, List<Violation> violations, List<String> warnings,
            Map<String, String> fingerprints) {
        public Report {
            violations = List.copyOf(violations);
            warnings = List.copyOf(warnings);
            fingerprints = Collections.unmodifiableMap(new LinkedHashMap<>(fingerprints));
        }

        /** A report that does not carry the ops' fingerprints. */
        public Report(int checked, List<Violation> violations, List<String> warnings) {
            this(checked, violations, warnings, Map.of());
        }
    }

    /** The warning for a temporary file an interrupted write left behind. */
    static final String LEFTOVER = "left over from a recording that was interrupted; it is not a cassette and is"
            + " never read. Delete it";

    private CassetteIntegrity() {
    }

    /** Why {@code op} has no cassette: the fingerprint looked for and the nearest recorded request. */
    private static String missing(CassetteStore store, String op, ObjectNode request) {
        try {
            store.replay(op, request);
            return "no cassette for op '" + op + "': looked for " + store.fingerprint(request) + ".json";
        } catch (CassetteMiss e) {
            return e.problem();
        } catch (CassetteException e) {
            return "no cassette for op '" + op + "': looked for " + store.fingerprint(request) + ".json";
        }
    }

    /** Checks {@code config}'s cassette folder against its scenarios. */
    public static Report check(HarnessConfig config, boolean orphansAreErrors) throws IOException {
        return check(config, orphansAreErrors, (file, bytes) -> { });
    }

    /**
     * Checks {@code config}'s cassette folder against its scenarios, handing the bytes of every file it reads to
     * {@code alsoRead} (from several threads at once), so that another pass need not read them again.
     */
    public static Report check(HarnessConfig config, boolean orphansAreErrors, BiConsumer<Path, byte[]> alsoRead)
            throws IOException {
        return check(config, orphansAreErrors, alsoRead, file -> true, (cassette, size) -> { });
    }

    /**
     * As {@link #check(HarnessConfig, boolean, BiConsumer)}, for the cassette files {@code part} accepts only (a
     * shard's): other files are neither read nor reported, and an op's missing cassette is reported only when the file
     * it would be is one of them.
     */
    public static Report check(HarnessConfig config, boolean orphansAreErrors, BiConsumer<Path, byte[]> alsoRead,
            Predicate<Path> part) throws IOException {
        return check(config, orphansAreErrors, alsoRead, part, (cassette, size) -> { });
    }

    /**
     * As {@link #check(HarnessConfig, boolean, BiConsumer)}, also handing {@code alsoParsed} every cassette a scenario
     * op needs that passed every check here (named by its fingerprint, no volatile field left), with the size of its
     * file, so that the runs need not parse it again.
     */
    public static Report check(HarnessConfig config, boolean orphansAreErrors, BiConsumer<Path, byte[]> alsoRead,
            ObjLongConsumer<Cassette> alsoParsed) throws IOException {
        return check(config, orphansAreErrors, alsoRead, file -> true, alsoParsed);
    }

    /**
     * As {@link #check(HarnessConfig, boolean, BiConsumer, Predicate)}, also handing {@code alsoParsed} every clean
     * cassette a scenario op needs, as {@link #check(HarnessConfig, boolean, BiConsumer, ObjLongConsumer)} does.
     */
    public static Report check(HarnessConfig config, boolean orphansAreErrors, BiConsumer<Path, byte[]> alsoRead,
            Predicate<Path> part, ObjLongConsumer<Cassette> alsoParsed) throws IOException {
        return check(config, orphansAreErrors, (file, bytes, parsed) -> alsoRead.accept(file, bytes), part,
                alsoParsed);
    }

    /** What the pass hands on of each file it reads, from several threads at once. */
    @FunctionalInterface
    public interface FileRead {

        /**
         * @param file   the cassette file
         * @param bytes  its content
         * @param parsed its JSON tree as {@link CassetteReader#readTree} read it, or {@code null} when the content is
         *               not one JSON value
         */
        void read(Path file, byte[] bytes, JsonNode parsed);
    }

    /**
     * As {@link #check(HarnessConfig, boolean, BiConsumer, Predicate, ObjLongConsumer)}, handing {@code alsoRead} the
     * tree of each file along with its bytes, so that a pass over the same files need not parse them again.
     */
    public static Report check(HarnessConfig config, boolean orphansAreErrors, FileRead alsoRead,
            Predicate<Path> part, ObjLongConsumer<Cassette> alsoParsed) throws IOException {
        return check(config, orphansAreErrors, alsoRead, part, alsoParsed, null);
    }

    /**
     * As {@link #check(HarnessConfig, boolean, FileRead, Predicate, ObjLongConsumer)}, with the listing of the cassette
     * folder already under way ({@link CassetteStore#listingAhead} of {@code config.cassettes()}), or {@code null} to
     * list it here.
     */
    public static Report check(HarnessConfig config, boolean orphansAreErrors, FileRead alsoRead,
            Predicate<Path> part, ObjLongConsumer<Cassette> alsoParsed, Future<CassetteStore.Listing> listedAhead)
            throws IOException {
        return check(config, orphansAreErrors, alsoRead, part, alsoParsed, listedAhead, null);
    }

    /**
     * As {@link #check(HarnessConfig, boolean, FileRead, Predicate, ObjLongConsumer, Future)}, handing {@code digest}
     * (may be {@code null}) the listing and what each file read holds, so that the record of this check is digested
     * from this very pass ({@link Reads}). A digest of another folder than {@code config}'s is handed nothing.
     */
    public static Report check(HarnessConfig config, boolean orphansAreErrors, FileRead alsoRead,
            Predicate<Path> part, ObjLongConsumer<Cassette> alsoParsed, Future<CassetteStore.Listing> listedAhead,
            Reads digest) throws IOException {
        Reads digested = digest != null && digest.cassettes().equals(config.cassettes()) ? digest : null;
        VolatilePaths volatilePaths = VolatilePaths.of(config.volatilePaths());
        CassetteStore store = CassetteStore.replaying(config.cassettes(), volatilePaths);
        CassetteReader reader = new CassetteReader(config.cassettes(), volatilePaths);
        // The folder is listed on another core while the ops are worked out here, unless that is under way already.
        Future<CassetteStore.Listing> listed = listedAhead != null ? listedAhead
                : ForkJoinTask.adapt(store::listing).fork();
        // Each op once, with the line of the scenario that first names it. Fingerprinting only reads a request.
        Map<String, Integer> opLines = new LinkedHashMap<>();
        for (Scenario s : config.scenarios()) {
            for (String op : s.ops()) {
                opLines.putIfAbsent(op, s.line());
            }
        }
        List<String> ops = List.copyOf(opLines.keySet());
        // An op's fingerprint is that of the cassette whose request equals the op's (equal trees have one canonical
        // form), which the pass below works out anyway; only the ops no cassette matches are fingerprinted after it.
        // Of ops sending equal requests, the first is the one named.
        Map<ObjectNode, Integer> opOfRequest = new ConcurrentHashMap<>();
        Indices.forEach(ops.size(), i -> opOfRequest.merge(config.sharedRequest(ops.get(i)), i, Math::min));
        CassetteStore.Listing listing = joined(listed);
        if (digested != null) {
            digested.listed(listing);
        }
        List<Path> files = listing.cassettes().stream().filter(part).toList();
        String[] fingerprints = new String[ops.size()];
        // Each file's name without .json, by the file's index: the orphan test below needs it again.
        String[] stems = new String[files.size()];
        Map<String, Boolean> present = new ConcurrentHashMap<>();
        Map<String, Boolean> broken = new ConcurrentHashMap<>();
        Map<String, Boolean> misnamed = new ConcurrentHashMap<>();
        // Cassettes recorded through a loop's SDK, by the op they are labelled with.
        Map<String, String> labelOf = new ConcurrentHashMap<>();
        // A violation names the op of the cassette, which is known once every op's fingerprint is.
        List<Function<Map<String, String>, Violation>> violations = Collections.synchronizedList(new ArrayList<>());
        Indices.forEach(files.size(), i -> {
            Path file = files.get(i);
            String subject = file.toString();
            String name = file.getFileName().toString();
            String stem = name.substring(0, name.length() - ".json".length());
            stems[i] = stem;
            Cassette c;
            long size;
            byte[] bytes = null;
            JsonNode tree = null;
            try {
                CassetteReader.FileBytes read = reader.readFile(file);
                bytes = read.bytes();
                if (digested != null) {
                    digested.read(file, read);
                }
                size = bytes.length;
                tree = reader.readTree(file, bytes);
                alsoRead.read(file, bytes, tree);
                c = reader.parse(file, tree);
            } catch (CassetteException e) {
                if (bytes != null && tree == null) {
                    alsoRead.read(file, bytes, null);
                }
                if (digested != null && bytes == null) {
                    digested.unread(file);
                }
                broken.put(stem, Boolean.TRUE);
                violations.add(opOf -> new Violation(Invariant.CASSETTES, e.location(), opOf.get(stem), null,
                        null, e.problem(), e.hint()));
                return;
            }
            present.put(stem, Boolean.TRUE);
            Integer answers = opOfRequest.get(c.request());
            if (answers != null) {
                fingerprints[answers] = c.fingerprint();
            }
            if (c.op() != null) {
                labelOf.put(stem, c.op());
            }
            if (!stem.equals(c.fingerprint())) {
                misnamed.put(stem, Boolean.TRUE);
                violations.add(opOf -> new Violation(Invariant.CASSETTES, subject, opOf.get(c.fingerprint()),
                        c.fingerprint() + ".json", name, "the file name is not its request's fingerprint",
                        "Rename it to " + c.fingerprint() + ".json, or re-record it with mvn resilience:record"));
            }
            ObjectNode whole = c.request().objectNode();
            whole.set("request", c.request());
            whole.set("response", c.response());
            boolean clean = stem.equals(c.fingerprint());
            for (String path : volatilePaths.remaining(whole)) {
                clean = false;
                violations.add(opOf -> new Violation(Invariant.CASSETTES, subject, opOf.get(c.fingerprint()), null,
                        null, "volatile field " + path + " is still in the cassette",
                        "Remove it (mvn resilience:record strips volatile paths before writing)"));
            }
            if (c.stream() != null) {
                whole.set(dev.resilienceharness.cassette.CassetteStream.KEY, c.stream().toJson());
                for (String path : dev.resilienceharness.cassette.CassetteStream.remainingVolatile(whole,
                        volatilePaths)) {
                    clean = false;
                    violations.add(opOf -> new Violation(Invariant.CASSETTES, subject, opOf.get(c.fingerprint()),
                            null, null, "volatile field " + path + " is still in the cassette",
                            "Remove it (mvn resilience:record strips volatile paths before writing, inside stream"
                                    + " events too)"));
                }
            }
            if (clean && answers != null) {
                alsoParsed.accept(c, size);
            }
        });
        Indices.forEach(ops.size(), i -> {
            if (fingerprints[i] == null) {
                fingerprints[i] = store.fingerprint(config.sharedRequest(ops.get(i)));
            }
        });
        Map<String, String> needed = new LinkedHashMap<>();
        for (int i = 0; i < ops.size(); i++) {
            needed.putIfAbsent(fingerprints[i], ops.get(i));
        }
        List<Violation> sorted = new ArrayList<>();
        violations.forEach(v -> sorted.add(v.apply(needed)));
        sorted.sort((a, b) -> a.subject().compareTo(b.subject()));
        java.util.Set<String> labelled = new java.util.HashSet<>(labelOf.values());
        needed.forEach((fp, op) -> {
            // A broken file under the right name is reported above, with its op; it is not missing too. An op whose
            // calls come from the loop's SDK is covered by the cassettes recorded for it.
            if (!present.containsKey(fp) && !broken.containsKey(fp)
                    && !(config.sdkOp(op) && labelled.contains(op)) && part.test(store.fileFor(fp))) {
                String where = config.where(op);
                sorted.add(new Violation(Invariant.CASSETTES, where.substring(0, where.length() - 2), op, null, null,
                        missing(store, op, config.sharedRequest(op)),
                        config.sdkOp(op) ? CassetteMiss.recordThroughLoop(config.loop()) : CassetteMiss.HINT));
            }
        });
        List<String> warnings = new ArrayList<>();
        // Whether each file is needed, on all cores (the maps are only read now); then the others in the folder's order.
        boolean[] notNeeded = new boolean[files.size()];
        Indices.forEach(files.size(), i -> {
            String stem = stems[i];
            // A misnamed file is reported above; under its right name it may well be used.
            String label = labelOf.get(stem);
            boolean labelledForAnOp = label != null && opLines.containsKey(label) && config.sdkOp(label);
            notNeeded[i] = present.containsKey(stem) && !needed.containsKey(stem) && !misnamed.containsKey(stem)
                    && !labelledForAnOp;
        });
        List<Path> unneeded = new ArrayList<>();
        for (int i = 0; i < notNeeded.length; i++) {
            if (notNeeded[i]) {
                unneeded.add(files.get(i));
            }
        }
        // Used, though never required: a repair's own cassette, and the cassette of a request the yaml (or the file
        // its requests_from names) declares for an op no scenario here runs, which another yaml may well run. They are
        // fingerprinted only when some file is not needed otherwise, which is seldom.
        Set<String> used = new HashSet<>();
        if (!unneeded.isEmpty()) {
            List<ObjectNode> others = new ArrayList<>();
            config.repairRequests().values().forEach(others::addAll);
            config.requests().forEach((op, request) -> {
                if (!opLines.containsKey(op)) {
                    others.add(request);
                }
            });
            others.parallelStream().map(store::fingerprint).toList().forEach(used::add);
        }
        for (Path file : unneeded) {
            String name = file.getFileName().toString();
            String stem = name.substring(0, name.length() - ".json".length());
            if (!used.contains(stem)) {
                String text = "orphan cassette: no scenario op sends its request";
                if (orphansAreErrors) {
                    sorted.add(new Violation(Invariant.CASSETTES, file.toString(), null, null, null, text,
                            "Delete it, or run with orphans allowed"));
                } else {
                    warnings.add(file + ": " + text);
                }
            }
        }
        for (Path tmp : listing.leftovers().stream().filter(part).toList()) {
            warnings.add(tmp + ": " + LEFTOVER);
        }
        int tools = toolRecordings(config.cassettes(), reader, alsoRead, part, sorted, warnings);
        tools += mcpSessions(config, orphansAreErrors, reader, alsoRead, part, sorted, warnings);
        Map<String, String> byOp = new LinkedHashMap<>();
        for (int i = 0; i < ops.size(); i++) {
            byOp.put(ops.get(i), fingerprints[i]);
        }
        return new Report(files.size() + tools, sorted, warnings, byOp);
    }

    /**
     * Checks the recordings of {@code replay: recorded} tools in the folder {@code tools/} (those {@code part}
     * accepts), handing each file read to {@code alsoRead}: each must parse and be named by its call's fingerprint.
     * Their violations go to {@code violations} (after the cassettes', by file), leftover temporary files to
     * {@code warnings}.
     *
     * @return how many recordings were read
     */
    private static int toolRecordings(Path cassettes, CassetteReader reader, FileRead alsoRead, Predicate<Path> part,
            List<Violation> violations, List<String> warnings) throws IOException {
        Path folder = ToolRecordings.folderOf(cassettes);
        if (!java.nio.file.Files.isDirectory(folder)) {
            if (java.nio.file.Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                violations.add(new Violation(Invariant.CASSETTES, folder.toString(), null, null, null,
                        TOOLS_NOT_A_FOLDER, "Remove it from the cassette folder"));
            }
            return 0;
        }
        CassetteStore.Listing listing = CassetteStore.listingOf(folder);
        List<Path> files = listing.cassettes().stream().filter(part).toList();
        List<Violation> found = Collections.synchronizedList(new ArrayList<>());
        Indices.forEach(files.size(), i -> {
            Path file = files.get(i);
            String name = file.getFileName().toString();
            ToolRecording recording;
            try {
                byte[] bytes = reader.readBytes(file);
                JsonNode tree = null;
                try {
                    tree = reader.readTree(file, bytes);
                } finally {
                    alsoRead.read(file, bytes, tree);
                }
                recording = ToolRecordings.parse(file, tree);
            } catch (CassetteException e) {
                found.add(new Violation(Invariant.CASSETTES, e.location(), null, null, null, e.problem(), e.hint()));
                return;
            }
            String expected = recording.fingerprint() + ".json";
            if (!name.equals(expected)) {
                found.add(new Violation(Invariant.CASSETTES, file.toString(), null, expected, name,
                        ToolRecordings.MISNAMED, "Rename it to " + expected + ", or delete it and re-record it with"
                                + " mvn resilience:record"));
            }
        });
        List<Violation> sorted = new ArrayList<>(found);
        sorted.sort((a, b) -> a.subject().compareTo(b.subject()));
        violations.addAll(sorted);
        for (Path tmp : listing.leftovers().stream().filter(part).toList()) {
            warnings.add(tmp + ": " + LEFTOVER);
        }
        return files.size();
    }

    /**
     * Checks the recorded MCP sessions in {@code mcp/<server>/} (those {@code part} accepts), handing each file read to
     * {@code alsoRead}: each must read as a session ({@link McpCassetteReader}) of the server whose folder holds it.
     * Their violations go to {@code violations} (by file), leftover temporary files to {@code warnings}; the folder of a
     * server no {@code mcp_servers:} entry names is an orphan, as a cassette no op sends is.
     *
     * @return how many session files were read
     */
    private static int mcpSessions(HarnessConfig config, boolean orphansAreErrors, CassetteReader reader,
            FileRead alsoRead, Predicate<Path> part, List<Violation> violations, List<String> warnings)
            throws IOException {
        Path cassettes = config.cassettes();
        Path folder = cassettes.resolve(McpCassetteFiles.FOLDER);
        if (!java.nio.file.Files.isDirectory(folder)) {
            if (java.nio.file.Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                violations.add(new Violation(Invariant.CASSETTES, folder.toString(), null, null, null,
                        MCP_NOT_A_FOLDER, "Remove it from the cassette folder"));
            }
            return 0;
        }
        List<Path> files = new ArrayList<>();
        List<Violation> found = Collections.synchronizedList(new ArrayList<>());
        for (Path entry : CassetteStore.listingOf(folder).entries()) {
            if (!java.nio.file.Files.isDirectory(entry, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                if (part.test(entry)) {
                    found.add(new Violation(Invariant.CASSETTES, entry.toString(), null, null, null,
                            MCP_OUTSIDE_SERVER, "Move it into the folder of its server, mcp/<server>/"));
                }
                continue;
            }
            String server = entry.getFileName().toString();
            if (!config.mcpServers().containsKey(server) && part.test(entry)) {
                String text = MCP_ORPHAN + "'" + server + "'";
                if (orphansAreErrors) {
                    found.add(new Violation(Invariant.CASSETTES, entry.toString(), null, null, null, text,
                            "Declare the server under mcp_servers:, or delete the folder"));
                } else {
                    warnings.add(entry + ": " + text);
                }
            }
            CassetteStore.Listing listing = CassetteStore.listingOf(entry);
            listing.cassettes().stream().filter(part).forEach(files::add);
            for (Path tmp : listing.leftovers().stream().filter(part).toList()) {
                warnings.add(tmp + ": " + LEFTOVER);
            }
        }
        McpCassetteReader sessions = new McpCassetteReader(cassettes);
        Indices.forEach(files.size(), i -> {
            Path file = files.get(i);
            try {
                byte[] bytes = reader.readBytes(file);
                JsonNode tree = null;
                try {
                    tree = reader.readTree(file, bytes);
                } finally {
                    alsoRead.read(file, bytes, tree);
                }
                sessions.read(file, bytes);
            } catch (CassetteException e) {
                found.add(new Violation(Invariant.CASSETTES, e.location(), null, null, null, e.problem(), e.hint()));
            }
        });
        List<Violation> sorted = new ArrayList<>(found);
        sorted.sort((a, b) -> a.subject().compareTo(b.subject()));
        violations.addAll(sorted);
        return files.size();
    }

    /** The violation for a file where the folder of MCP sessions belongs. */
    static final String MCP_NOT_A_FOLDER = "is a file, where the folder of MCP sessions (mcp_servers:) belongs";

    /** The orphan a server's folder is when no {@code mcp_servers:} entry names the server (the name follows). */
    static final String MCP_ORPHAN = "orphan MCP sessions: no mcp_servers entry names server ";

    /** The violation for a file in {@code mcp/} outside any server's folder. */
    static final String MCP_OUTSIDE_SERVER = "lies in mcp/ outside any server's folder; MCP sessions lie in"
            + " mcp/<server>/";

    /** The violation for a file where the folder of tool recordings belongs. */
    static final String TOOLS_NOT_A_FOLDER = "is a file, where the folder of tool recordings (replay: recorded)"
            + " belongs";

    /** The listing {@code listed} made, or the {@link IOException} it ended with. */
    private static CassetteStore.Listing joined(Future<CassetteStore.Listing> listed) throws IOException {
        try {
            return listed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the cassette folder was listed");
        } catch (ExecutionException e) {
            // The task wraps what the listing threw, and a pool may wrap that again when another thread ran it.
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof IOException io) {
                    throw io;
                }
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
