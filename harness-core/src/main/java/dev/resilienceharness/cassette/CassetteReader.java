package dev.resilienceharness.cassette;

import dev.resilienceharness.json.Fingerprint;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads one cassette file strictly: a JSON object with an object {@code request} and a {@code response}, no
 * duplicate keys, no larger than {@link #MAX_BYTES}, and not reached through a symlink that leads out of the
 * cassette folder.
 */
public final class CassetteReader {

    /** Far larger than any real chat completion; a bigger file is refused rather than read. */
    public static final long MAX_BYTES = 16L * 1024 * 1024;

    private final Path folder;
    private final Path realFolder;
    private final VolatilePaths volatilePaths;

    /**
     * @param folder        the cassette folder; files must stay inside it
     * @param volatilePaths paths removed from the request before fingerprinting
     */
    public CassetteReader(Path folder, VolatilePaths volatilePaths) {
        this.folder = folder.toAbsolutePath().normalize();
        this.realFolder = realPath(this.folder);
        this.volatilePaths = volatilePaths;
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }

    /** Reads and checks {@code file}; the cassette's fingerprint is computed from its request. */
    public Cassette read(Path file) throws CassetteException {
        byte[] bytes = readBytes(file);
        return parse(file, bytes);
    }

    /** Reads the raw bytes of {@code file}, refusing symlinks out of the folder and oversized files. */
    public byte[] readBytes(Path file) throws CassetteException {
        try {
            // One lstat answers the common case (a plain file); only a link costs more.
            BasicFileAttributes attributes = attributes(file);
            long size;
            if (attributes != null && attributes.isSymbolicLink()) {
                Path target = file.toRealPath();
                if (!target.startsWith(realFolder)) {
                    throw new CassetteException(file, "is a symbolic link leading out of the cassette folder "
                            + folder + "; it is not followed. Replace it with the cassette file itself");
                }
                if (!Files.isRegularFile(file)) {
                    throw new CassetteException(file, "is not a regular file; remove it from the cassette folder");
                }
                size = Files.size(file);
            } else if (attributes != null && attributes.isRegularFile()) {
                size = attributes.size();
            } else {
                throw new CassetteException(file, "is not a regular file; remove it from the cassette folder");
            }
            if (size > MAX_BYTES) {
                throw new CassetteException(file, "is " + size + " bytes; a cassette may be at most " + MAX_BYTES
                        + " bytes (16 MiB). Re-record it or remove it");
            }
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new CassetteException(file, "does not exist (or is a dangling link)");
        } catch (IOException e) {
            throw new CassetteException(file, "cannot be read: " + e.getMessage());
        }
    }

    /** The file's own attributes (a link's, not its target's), or {@code null} when they cannot be read. */
    private static BasicFileAttributes attributes(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return null;
        }
    }

    /** Parses cassette bytes read from {@code file}. */
    public Cassette parse(Path file, byte[] bytes) throws CassetteException {
        JsonNode root;
        try {
            root = Json.readTree(bytes);
        } catch (JacksonException e) {
            TokenStreamLocation loc = e.getLocation();
            int line = loc == null ? 0 : loc.getLineNr();
            int col = loc == null ? 0 : loc.getColumnNr();
            throw new CassetteException(file, Math.max(line, 0), Math.max(col, 0),
                    "is not valid JSON: " + e.getOriginalMessage()
                            + ". Fix the file or delete it and run mvn resilience:record");
        }
        if (root == null || !root.isObject()) {
            throw new CassetteException(file, 1, 1, "must hold a JSON object with \"request\" and \"response\", found "
                    + (root == null ? "nothing" : root.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)));
        }
        JsonNode request = root.get("request");
        if (request == null || !request.isObject()) {
            throw new CassetteException(file, 1, 1, (request == null ? "has no \"request\"" : "has a \"request\" that"
                    + " is not a JSON object") + "; a cassette is {\"request\": {...}, \"response\": {...}}");
        }
        JsonNode response = root.get("response");
        if (response == null) {
            throw new CassetteException(file, 1, 1,
                    "has no \"response\"; a cassette is {\"request\": {...}, \"response\": {...}}");
        }
        Timing timing;
        JsonNode timingNode = root.get("timing");
        if (timingNode != null && !timingNode.isNull() && !timingNode.isObject()) {
            throw new CassetteException(file, 1, 1, "has a \"timing\" that is not an object; expected"
                    + " {\"first_token_ms\": 420, \"total_ms\": 1800}");
        }
        timing = Timing.fromJson(timingNode);
        ObjectNode req = (ObjectNode) request;
        String fingerprint = fingerprint(req, volatilePaths);
        return new Cassette(file, fingerprint, req, response, timing);
    }

    /** The fingerprint of a request after its volatile paths are removed; the request is not changed. */
    public static String fingerprint(ObjectNode request, VolatilePaths volatilePaths) {
        ObjectNode stripped = volatilePaths.touchesRequest() ? volatilePaths.stripRequest(request.deepCopy()) : request;
        return Fingerprint.of(stripped);
    }
}
