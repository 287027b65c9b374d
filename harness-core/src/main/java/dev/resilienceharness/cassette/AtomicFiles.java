package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import org.apiguardian.api.API;

/**
 * Writes a file so that a crash leaves either the old content or the new, never half of it: a temporary
 * file in the same folder, fsync, atomic rename, then fsync of the folder.
 *
 * <p>The temporary file is {@code .<name>.<random>.tmp}. It never ends in {@code .json}, so no reader takes
 * it for a cassette; one left behind by a killed process is harmless and may be deleted at any time when no
 * recording is running ({@code verify-cassettes} warns about it). Each writer has its own temporary file, so
 * processes writing into one folder at once do not disturb each other: the last rename wins, whole.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class AtomicFiles {

    /** How every temporary file's name ends. */
    public static final String TEMPORARY_SUFFIX = ".tmp";

    private AtomicFiles() {
    }

    /** Replaces {@code target} with {@code content} atomically, creating its folder when needed. */
    public static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = null;
        try {
            FileChannel ch = null;
            while (ch == null) {
                tmp = dir.resolve("." + target.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current()
                        .nextLong() & Long.MAX_VALUE) + TEMPORARY_SUFFIX);
                try {
                    // CREATE_NEW with default permissions: the cassette gets the umask's mode, like any new file.
                    ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException e) {
                    ch = null;
                }
            }
            try (FileChannel out = ch) {
                ByteBuffer buf = ByteBuffer.wrap(content);
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                out.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            if (tmp != null) {
                Files.deleteIfExists(tmp);
            }
        }
        syncDirectory(dir);
    }

    /** Whether {@code file} is a temporary file of {@link #write}: left over when its writer was killed. */
    public static boolean isTemporary(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(".") && name.endsWith(TEMPORARY_SUFFIX) && name.length() > 1 + TEMPORARY_SUFFIX.length();
    }

    /** Makes a rename in {@code dir} durable; a no-op where the platform cannot open folders. */
    static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Some platforms (Windows) cannot fsync a folder; the rename itself is still atomic there.
        }
    }
}
