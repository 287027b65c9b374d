package dev.resilienceharness.incremental;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.concurrent.Indices;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apiguardian.api.API;

/**
 * A SHA-256 over length-prefixed text fields, and the digests of what files and folders hold: how the check's record
 * ({@link CheckRecord}) and a shard's marker say which inputs a result belongs to.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class InputDigest {

    private static final ThreadLocal<ByteBuffer> BUFFERS = ThreadLocal.withInitial(() -> ByteBuffer.allocate(1 << 16));
    /** One digest per thread for the files' contents, reset before each. */
    private static final ThreadLocal<MessageDigest> DIGESTS = ThreadLocal.withInitial(InputDigest::sha256);

    private final MessageDigest md = sha256();

    /** An empty digest. */
    public InputDigest() {
    }

    /** Adds {@code value}, its length first, so that no two sequences of fields hash alike. */
    public InputDigest field(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        md.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        md.update(bytes);
        return this;
    }

    /** The digest of the fields added, as 64 hex digits. */
    public String hex() {
        return HexFormat.of().formatHex(md.digest());
    }

    /**
     * Every entry of the folder, sorted by name, as the check's pass lists it ({@link CassetteStore.Listing#entries});
     * none when it does not exist, or is a file (which the check reports).
     */
    public static List<Path> entries(Path folder) throws IOException {
        try {
            return CassetteStore.listingOf(folder).entries();
        } catch (IOException e) {
            if (e.getCause() instanceof NotDirectoryException) {
                return List.of();
            }
            throw e;
        }
    }

    /** {@link #of(Path)} of each entry, in order, worked out on all cores (reading and hashing is all the cost). */
    public static String[] ofAll(List<Path> entries) {
        String[] digests = new String[entries.size()];
        Indices.forEach(entries.size(), i -> digests[i] = of(entries.get(i)));
        return digests;
    }

    /**
     * What an entry holds: the hex SHA-256 of a regular file's bytes, the target and what it holds for a symbolic link,
     * for a folder (the tool recordings' {@code tools/}, the MCP sessions' {@code mcp/} with a folder per server) the
     * name and what each of its entries holds, two levels deep, and only the kind of anything else. A named pipe or a device is never opened: reading one could block the build.
     */
    public static String of(Path entry) {
        return of(entry, FOLDER_LEVELS);
    }

    /** How deep a folder is told by its entries: {@code mcp/<server>/<session>.json} is two levels down. */
    private static final int FOLDER_LEVELS = 2;

    /** {@link #of(Path)}, a folder told by its entries {@code levels} deep, deeper by its kind only. */
    private static String of(Path entry, int levels) {
        try {
            BasicFileAttributes a = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) {
                Path link = Files.readSymbolicLink(entry);
                try {
                    return linkedTo(link, of(entry.toRealPath(), levels));
                } catch (NoSuchFileException e) {
                    return linkedTo(link, "dangling");
                }
            }
            if (a.isDirectory()) {
                return levels > 0 ? folderDigest(entry, levels) : "folder";
            }
            if (!a.isRegularFile()) {
                return "special file";
            }
            return fileDigest(entry);
        } catch (NoSuchFileException e) {
            return "absent";
        } catch (IOException e) {
            // The check reports an unreadable file itself; what matters here is that it is not the same file.
            return "unreadable: " + e.getMessage();
        }
    }

    /**
     * What {@link #of(Path)} says of an entry whose bytes are {@code bytes}: for a regular file, their hex SHA-256; for
     * a symbolic link to a regular file, its {@code link} (as the link itself says) and their SHA-256.
     *
     * @param link what the entry links to, or {@code null} when it is the regular file itself
     */
    public static String ofContent(byte[] bytes, Path link) {
        String hex = HexFormat.of().formatHex(threadDigest().digest(bytes));
        return link == null ? hex : linkedTo(link, hex);
    }

    /** What {@link #of(Path)} says of a symbolic link to {@code link} whose target is {@code target}. */
    private static String linkedTo(Path link, String target) {
        return "link to " + link + ": " + target;
    }

    /** This thread's SHA-256, reset: a file whose reading failed half-way on this thread may have left bytes in it. */
    private static MessageDigest threadDigest() {
        MessageDigest md = DIGESTS.get();
        md.reset();
        return md;
    }

    /**
     * What a jar holds, by its zip directory: a CRC-32 over the name, size and CRC-32 of every entry, in the
     * directory's order, with the number of entries. A change to one entry's bytes changes its CRC-32 (but for one
     * change in four billion) or its size, and so, always, this CRC-32 (a change of 32 bits or fewer is one a CRC-32
     * always tells); a change to several entries goes unseen once in four billion times. It reads the directory only,
     * and needs no SHA-256: in Maven's JVM, setting that up (30 to 40 ms) and hashing a 1 MB jar made every check 50 ms
     * slower.
     *
     * @throws IOException when the file cannot be read or is not a zip file
     */
    public static String ofJar(Path jar) throws IOException {
        CRC32 crc = new CRC32();
        ByteBuffer fields = ByteBuffer.allocate(16);
        int count = 0;
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                byte[] name = e.getName().getBytes(StandardCharsets.UTF_8);
                fields.clear();
                fields.putInt(name.length).putLong(e.getSize()).putInt((int) e.getCrc());
                crc.update(name);
                crc.update(fields.array(), 0, fields.position());
                count++;
            }
        }
        return count + " entries, directory CRC-32 " + Long.toHexString(crc.getValue());
    }

    /**
     * What {@link #of(Path)} says of {@code file}, whose bytes, read through its path, are {@code bytes}: their
     * SHA-256, after what it links to when it is a symbolic link. A link that cannot be read is looked at again.
     */
    public static String ofRead(Path file, byte[] bytes) {
        try {
            return ofContent(bytes, Files.isSymbolicLink(file) ? Files.readSymbolicLink(file) : null);
        } catch (IOException e) {
            return of(file);
        }
    }

    /** A folder's entries, sorted by name, each with what it holds (a folder in it by its kind only). */
    private static String folderDigest(Path folder, int levels) throws IOException {
        List<Path> entries;
        try (java.util.stream.Stream<Path> list = Files.list(folder)) {
            entries = list.sorted().toList();
        }
        InputDigest digest = new InputDigest();
        for (Path e : entries) {
            digest.field(e.getFileName().toString()).field(of(e, levels - 1));
        }
        return "folder of " + entries.size() + " entries: " + digest.hex();
    }

    private static String fileDigest(Path file) throws IOException {
        // One digest per thread, not a look-up among the security providers per file.
        MessageDigest md = threadDigest();
        ByteBuffer buffer = BUFFERS.get();
        try (FileChannel ch = FileChannel.open(file, LinkOption.NOFOLLOW_LINKS)) {
            buffer.clear();
            while (ch.read(buffer) >= 0) {
                buffer.flip();
                md.update(buffer);
                buffer.clear();
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
