package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.Fingerprint;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.StrictUtf8;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.transport.ToolSchemas;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Iterator;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads one cassette file strictly: a JSON object with an object {@code request} and a {@code response}, no
 * duplicate keys, finite numbers, no larger than {@link #MAX_BYTES}, and not reached through a symlink that
 * leads out of the cassette folder. Every refusal is a {@link CassetteException} naming the file.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class CassetteReader {

    /** Far larger than any real chat completion; a bigger file is refused rather than read. */
    public static final long MAX_BYTES = 16L * 1024 * 1024;

    private final Path folder;
    private final VolatilePaths volatilePaths;

    /**
     * @param folder        the cassette folder; files must stay inside it
     * @param volatilePaths paths removed from the request before fingerprinting
     */
    public CassetteReader(Path folder, VolatilePaths volatilePaths) {
        this.folder = folder.toAbsolutePath().normalize();
        this.volatilePaths = volatilePaths;
    }

    /** Reads and checks {@code file}; the cassette's fingerprint is computed from its request. */
    public Cassette read(Path file) throws CassetteException {
        byte[] bytes = readBytes(file);
        return parse(file, bytes);
    }

    /**
     * Reads the raw bytes of {@code file}. A symlink leading out of the folder, anything but a regular file, and
     * a file over {@link #MAX_BYTES} are refused without being opened.
     */
    public byte[] readBytes(Path file) throws CassetteException {
        return readFile(file).bytes();
    }

    /**
     * What {@link #readFile} read.
     *
     * @param bytes the file's content
     * @param link  what the file links to, as the link itself says, when it is a symbolic link (its content is then
     *              its target's); {@code null} for a regular file
     */
    public record FileBytes(byte[] bytes, Path link) {
    }

    /** As {@link #readBytes}, telling also whether the bytes were reached through a symbolic link, and which. */
    public FileBytes readFile(Path file) throws CassetteException {
        try {
            Path source = file;
            Path link = null;
            BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (attrs.isSymbolicLink()) {
                link = Files.readSymbolicLink(file);
                try {
                    source = file.toRealPath();
                } catch (NoSuchFileException e) {
                    throw new CassetteException(file, CassetteMessages.DANGLING, CassetteMessages.HINT_REMOVE);
                }
                if (!source.startsWith(realFolder())) {
                    throw new CassetteException(file, CassetteMessages.symlinkOut(folder),
                            CassetteMessages.HINT_LINK);
                }
                attrs = Files.readAttributes(source, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            }
            if (attrs.isDirectory()) {
                throw new CassetteException(file, CassetteMessages.DIRECTORY, CassetteMessages.HINT_REMOVE);
            }
            if (!attrs.isRegularFile()) {
                // Opening a pipe would block the build; a device could be endless.
                throw new CassetteException(file, CassetteMessages.NOT_REGULAR, CassetteMessages.HINT_REMOVE);
            }
            if (attrs.size() > MAX_BYTES) {
                throw new CassetteException(file, CassetteMessages.tooLarge(attrs.size()),
                        CassetteMessages.HINT_REPLACE);
            }
            try (InputStream in = Files.newInputStream(source, LinkOption.NOFOLLOW_LINKS)) {
                byte[] bytes = BoundedRead.upTo(in, attrs.size(), MAX_BYTES);
                if (bytes.length > MAX_BYTES) {
                    // It grew past the bound since its size was taken.
                    throw new CassetteException(file, CassetteMessages.tooLarge(Files.size(source)),
                            CassetteMessages.HINT_REPLACE);
                }
                return new FileBytes(bytes, link);
            }
        } catch (NoSuchFileException e) {
            throw new CassetteException(file, CassetteMessages.VANISHED, CassetteMessages.HINT_AGAIN);
        } catch (AccessDeniedException e) {
            throw new CassetteException(file, CassetteMessages.PERMISSION, CassetteMessages.HINT_PERMISSION);
        } catch (FileSystemException e) {
            throw new CassetteException(file, CassetteMessages.unreadable(e.getReason() == null ? e.toString()
                    : e.getReason()), CassetteMessages.HINT_REPLACE);
        } catch (IOException e) {
            throw new CassetteException(file, CassetteMessages.unreadable(String.valueOf(e.getMessage())),
                    CassetteMessages.HINT_REPLACE);
        }
    }

    /** The folder with every symlink resolved, looked up when needed: it may be created after this reader. */
    private Path realFolder() {
        try {
            return folder.toRealPath();
        } catch (IOException e) {
            return folder;
        }
    }

    /** Parses cassette bytes read from {@code file}. */
    public Cassette parse(Path file, byte[] bytes) throws CassetteException {
        return parse(file, readTree(file, bytes));
    }

    /**
     * The JSON tree of cassette bytes read from {@code file}, as {@link #parse(Path, byte[])} reads it: strict UTF-8,
     * exactly one value, no repeated key.
     *
     * @throws CassetteException when the bytes are empty, not UTF-8 or not one JSON value
     */
    public JsonNode readTree(Path file, byte[] bytes) throws CassetteException {
        JsonNode root;
        try {
            // Python's json.dumps writes ASCII: such bytes are their own text, and need no decoding.
            if (plainAscii(bytes)) {
                if (blank(bytes)) {
                    throw new CassetteException(file, CassetteMessages.EMPTY, CassetteMessages.HINT_FIX);
                }
                root = Json.readTree(bytes);
            } else {
                String text = decode(file, bytes);
                if (text.isBlank()) {
                    throw new CassetteException(file, CassetteMessages.EMPTY, CassetteMessages.HINT_FIX);
                }
                root = Json.readTree(text);
            }
        } catch (JacksonException e) {
            TokenStreamLocation loc = e.getLocation();
            throw new CassetteException(file, loc == null ? 0 : loc.getLineNr(), loc == null ? 0 : loc.getColumnNr(),
                    CassetteMessages.invalidJson(CassetteMessages.jsonProblem(e.getOriginalMessage())),
                    CassetteMessages.HINT_FIX);
        }
        if (root == null || root.isMissingNode()) {
            throw new CassetteException(file, CassetteMessages.EMPTY, CassetteMessages.HINT_FIX);
        }
        return root;
    }

    /** The cassette in {@code root}, the tree {@link #readTree} read from {@code file}. */
    public Cassette parse(Path file, JsonNode root) throws CassetteException {
        if (!root.isObject()) {
            throw new CassetteException(file, CassetteMessages.notAnObject(CassetteMessages.kind(root)),
                    CassetteMessages.HINT_FIX);
        }
        JsonNode request = root.get("request");
        if (request == null) {
            throw new CassetteException(file, CassetteMessages.NO_REQUEST, CassetteMessages.HINT_FIX);
        }
        if (!request.isObject()) {
            throw new CassetteException(file, CassetteMessages.requestNotAnObject(CassetteMessages.kind(request)),
                    CassetteMessages.HINT_FIX);
        }
        JsonNode response = root.get("response");
        if (response == null) {
            throw new CassetteException(file, CassetteMessages.NO_RESPONSE, CassetteMessages.HINT_FIX);
        }
        String infinite = nonFinite("", root);
        if (infinite != null) {
            throw new CassetteException(file, CassetteMessages.notFinite(infinite), CassetteMessages.HINT_FIX);
        }
        Timing timing = timing(file, root.get("timing"));
        JsonNode op = root.get("op");
        if (op != null && !op.isString()) {
            throw new CassetteException(file, CassetteMessages.opNotAString(CassetteMessages.kind(op)),
                    CassetteMessages.HINT_FIX);
        }
        java.time.Instant recordedAt = recordedAt(file, root.get("recorded_at"));
        CassetteStream stream;
        try {
            stream = CassetteStream.fromJson(root.get(CassetteStream.KEY));
        } catch (IllegalArgumentException e) {
            throw new CassetteException(file, e.getMessage(), CassetteMessages.HINT_FIX);
        }
        ToolSchemas.Unusable schema = ToolSchemas.problem(request);
        if (schema != null) {
            throw new CassetteException(file, CassetteMessages.badToolSchema(schema.toString()),
                    CassetteMessages.HINT_FIX);
        }
        ObjectNode req = (ObjectNode) request;
        String fingerprint;
        try {
            fingerprint = fingerprint(req, volatilePaths);
        } catch (IllegalArgumentException e) {
            throw new CassetteException(file, CassetteMessages.noCanonicalForm(String.valueOf(e.getMessage())),
                    CassetteMessages.HINT_FIX);
        }
        return new Cassette(file, fingerprint, req, response, timing, op == null ? null : op.asString(), recordedAt,
                stream);
    }

    /** The optional {@code recorded_at}: an ISO-8601 instant such as {@code 2026-01-01T00:00:00Z}. */
    private static java.time.Instant recordedAt(Path file, JsonNode node) throws CassetteException {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isString()) {
            try {
                return java.time.Instant.parse(node.asString());
            } catch (java.time.format.DateTimeParseException e) {
                throw new CassetteException(file, CassetteMessages.badRecordedAt("'"
                        + CassetteMessages.abbreviate(node.asString()) + "'"), CassetteMessages.HINT_FIX);
            }
        }
        throw new CassetteException(file, CassetteMessages.badRecordedAt("a JSON " + CassetteMessages.kind(node)),
                CassetteMessages.HINT_FIX);
    }

    /**
     * Whether the bytes are printable ASCII and the whitespace JSON allows, and so UTF-8 text as they are. Control
     * characters (a NUL could make a parser guess UTF-16) go the way of every other file, through {@link #decode}.
     */
    private static boolean plainAscii(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0x20 && b != '\n' && b != '\r' && b != '\t' || b == 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static boolean blank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    /**
     * The text of a cassette: UTF-8 and nothing else (Jackson would guess UTF-16 or UTF-32 from the bytes), a
     * leading byte order mark dropped.
     */
    private static String decode(Path file, byte[] bytes) throws CassetteException {
        StrictUtf8.Decoded decoded = StrictUtf8.decode(bytes);
        StrictUtf8.Malformed bad = decoded.malformed();
        if (bad != null) {
            throw new CassetteException(file, bad.line(), bad.column(), CassetteMessages.notUtf8(bad.badByte()),
                    CassetteMessages.HINT_UTF8);
        }
        String text = decoded.text();
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    private static Timing timing(Path file, JsonNode node) throws CassetteException {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new CassetteException(file, CassetteMessages.timingNotAnObject(CassetteMessages.kind(node)),
                    CassetteMessages.HINT_FIX);
        }
        for (String key : new String[] {"first_token_ms", "total_ms"}) {
            JsonNode value = node.get(key);
            // canConvertToLong first: asDouble throws for an integer beyond the double range.
            if (value != null && !value.isNull()
                    && (!value.isNumber() || !value.canConvertToLong() || !(value.asDouble() >= 0))) {
                throw new CassetteException(file, CassetteMessages.badTiming(key, value.isNumber()
                        ? CassetteMessages.abbreviate(value.toString()) : "a JSON " + CassetteMessages.kind(value)),
                        CassetteMessages.HINT_FIX);
            }
        }
        JsonNode samples = node.get("samples");
        if (samples != null && !samples.isNull()) {
            if (!samples.isArray()) {
                throw new CassetteException(file, CassetteMessages.badSamples("samples", "a JSON "
                        + CassetteMessages.kind(samples)), CassetteMessages.HINT_FIX);
            }
            for (int i = 0; i < samples.size(); i++) {
                JsonNode sample = samples.get(i);
                if (!sample.isObject()) {
                    throw new CassetteException(file, CassetteMessages.badSamples("samples[" + i + "]", "a JSON "
                            + CassetteMessages.kind(sample)), CassetteMessages.HINT_FIX);
                }
                for (String key : new String[] {"first_token_ms", "total_ms"}) {
                    JsonNode value = sample.get(key);
                    if (value != null && !value.isNull()
                            && (!value.isNumber() || !value.canConvertToLong() || !(value.asDouble() >= 0))) {
                        throw new CassetteException(file, CassetteMessages.badTiming("samples[" + i + "]." + key,
                                value.isNumber() ? CassetteMessages.abbreviate(value.toString())
                                        : "a JSON " + CassetteMessages.kind(value)), CassetteMessages.HINT_FIX);
                    }
                }
            }
        }
        return Timing.fromJson(node);
    }

    /** The path of the first number that read as an infinity (a literal beyond the double range), or null. */
    private static String nonFinite(String path, JsonNode node) {
        // Paths are spelled out only for a cassette that has such a number: building one per node costs.
        return hasNonFinite(node) ? pathToNonFinite(path, node) : null;
    }

    private static boolean hasNonFinite(JsonNode node) {
        if (node.isFloatingPointNumber()) {
            return !Double.isFinite(node.asDouble());
        }
        if (node.isContainer()) {
            for (JsonNode child : node.values()) {
                if (hasNonFinite(child)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String pathToNonFinite(String path, JsonNode node) {
        if (node.isFloatingPointNumber()) {
            return Double.isFinite(node.asDouble()) ? null : path;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String found = pathToNonFinite(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue());
                if (found != null) {
                    return found;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String found = pathToNonFinite(path + "[" + i + "]", node.get(i));
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /**
     * The fingerprint of a request after its volatile paths are removed; the request is not changed.
     *
     * @throws IllegalArgumentException when the request holds a number with no JSON form
     */
    public static String fingerprint(ObjectNode request, VolatilePaths volatilePaths) {
        ObjectNode stripped = volatilePaths.touchesRequest() ? volatilePaths.stripRequest(request.deepCopy()) : request;
        return Fingerprint.of(stripped);
    }
}
