package dev.resilienceharness.files;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * The one reader for every file a goal is given (the yaml, a {@code requests_from} file, a secrets baseline, a
 * shard's marker and report): a regular file, or a link to one, of at most a given size. A named pipe would block the
 * build and a device such as {@code /dev/zero} never ends, so neither is opened; a file over the bound is refused by
 * its size, and one that grows past it while read is read one byte past it, never more.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class BoundedFile {

    private BoundedFile() {
    }

    /** Why a file was not read, as the end of a sentence that starts with the file's name. */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        private final transient Path file;
        private final String reason;
        private final boolean missing;

        Refused(Path file, String reason, boolean missing) {
            super(file + ": " + reason);
            this.file = file;
            this.reason = reason;
            this.missing = missing;
        }

        /** The file that was not read. */
        public Path file() {
            return file;
        }

        /** What it is instead of a readable regular file, such as "is a named pipe (fifo), not a regular file". */
        public String reason() {
            return reason;
        }

        /** Whether nothing at all is there (not even a dangling link). */
        public boolean missing() {
            return missing;
        }
    }

    /** Reasons, in one place so that tests and docs can quote them. */
    public static final String MISSING = "does not exist";
    public static final String FOLDER = "is a folder, not a file";
    public static final String FIFO = "is a named pipe (fifo), not a regular file; it was not opened";
    public static final String CHAR_DEVICE = "is a character device, not a regular file; it was not opened";
    public static final String BLOCK_DEVICE = "is a block device, not a regular file; it was not opened";
    public static final String SOCKET = "is a socket, not a regular file; it was not opened";
    public static final String OTHER = "is not a regular file (a device, pipe or socket); it was not opened";
    public static final String DANGLING = "is a symbolic link to a file that does not exist";
    public static final String LOOP = "is a symbolic link that leads round in a loop";
    public static final String PERMISSION = "cannot be read: permission denied";

    /** The reason for a file of {@code size} bytes over {@code max}. */
    public static String tooLarge(long size, long max) {
        return "is " + size + " bytes, over the " + max + "-byte limit; it was not read";
    }

    /**
     * What {@code file} is when it is not a regular file (or a link to one), as a {@link Refused}; {@code null} when
     * it is one. Nothing is opened.
     */
    public static Refused check(Path file) {
        try {
            BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
            if (attrs.isRegularFile()) {
                return null;
            }
            return new Refused(file, attrs.isDirectory() ? FOLDER : special(file), false);
        } catch (NoSuchFileException e) {
            return Files.isSymbolicLink(file) ? new Refused(file, DANGLING, false) : new Refused(file, MISSING, true);
        } catch (AccessDeniedException e) {
            return new Refused(file, PERMISSION, false);
        } catch (FileSystemException e) {
            String reason = String.valueOf(e.getReason());
            if (reason.contains("symbolic links") || reason.contains("loop")) {
                return new Refused(file, LOOP, false);
            }
            return new Refused(file, "cannot be read: " + reason, false);
        } catch (IOException e) {
            return new Refused(file, "cannot be read: " + e.getClass().getSimpleName(), false);
        }
    }

    /** The kind of a file that is neither regular nor a folder, from its mode where the platform tells it. */
    private static String special(Path file) {
        try {
            Object mode = Files.getAttribute(file, "unix:mode");
            if (mode instanceof Integer m) {
                return switch (m & 0170000) {
                    case 0010000 -> FIFO;
                    case 0020000 -> CHAR_DEVICE;
                    case 0060000 -> BLOCK_DEVICE;
                    case 0140000 -> SOCKET;
                    default -> OTHER;
                };
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // No unix view on this platform: the generic reason says enough.
        }
        return OTHER;
    }

    /**
     * The bytes of {@code file}, a regular file (or a link to one) of at most {@code max} bytes.
     *
     * @throws Refused     when it is anything else, is missing, or is larger; names the file and what it is
     * @throws IOException when reading it fails midway
     */
    public static byte[] read(Path file, long max) throws IOException {
        Refused refused = check(file);
        if (refused != null) {
            throw refused;
        }
        long size;
        try {
            size = Files.size(file);
        } catch (NoSuchFileException e) {
            throw new Refused(file, MISSING, true);
        }
        if (size > max) {
            throw new Refused(file, tooLarge(size, max), false);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = upTo(in, size, max);
            if (bytes.length > max) {
                throw new Refused(file, tooLarge(Files.size(file), max), false);
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new Refused(file, MISSING, true);
        } catch (AccessDeniedException e) {
            throw new Refused(file, PERMISSION, false);
        }
    }

    /**
     * The bytes of {@code in}, {@code size} of them when its size was taken; at most {@code max + 1}, and more than
     * {@code max} only when the file holds more than {@code max}.
     */
    public static byte[] upTo(InputStream in, long size, long max) throws IOException {
        byte[] bytes = new byte[(int) Math.min(size, max + 1)];
        int n = in.readNBytes(bytes, 0, bytes.length);
        if (n < bytes.length) {
            return Arrays.copyOf(bytes, n);
        }
        if (n > max) {
            return bytes;
        }
        // One byte first: a file that did not grow, as nearly every one, is then read without another buffer.
        int next = in.read();
        if (next < 0) {
            return bytes;
        }
        byte[] rest = in.readNBytes((int) (max - n));
        byte[] all = Arrays.copyOf(bytes, n + 1 + rest.length);
        all[n] = (byte) next;
        System.arraycopy(rest, 0, all, n + 1, rest.length);
        return all;
    }
}
