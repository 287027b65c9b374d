package dev.resilienceharness.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class BoundedFileTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private BoundedFile.Refused refused(Path file, long max) {
        return assertTimeoutPreemptively(BOUND, () -> assertThrows(BoundedFile.Refused.class,
                () -> BoundedFile.read(file, max)));
    }

    @Test
    void a_regular_file_and_a_link_to_one_are_read() throws IOException {
        Path file = Files.writeString(dir.resolve("a.json"), "{}");
        assertArrayEquals("{}".getBytes(), BoundedFile.read(file, 10));
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), file);
        assertArrayEquals("{}".getBytes(), BoundedFile.read(link, 10));
        assertNull(BoundedFile.check(link));
    }

    @Test
    void a_named_pipe_is_refused_without_being_opened() {
        Path fifo = dir.resolve("baseline.json");
        assumeTrue(mkfifo(fifo), "mkfifo is not available");
        BoundedFile.Refused e = refused(fifo, 1 << 20);
        assertEquals(fifo + ": is a named pipe (fifo), not a regular file; it was not opened", e.getMessage());
        assertEquals(BoundedFile.FIFO, e.reason());
    }

    @Test
    void a_link_to_dev_zero_is_refused_without_reading_it() throws IOException {
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.exists(zero), "no /dev/zero here");
        Path link = Files.createSymbolicLink(dir.resolve("report.json"), zero);
        assertEquals(link + ": is a character device, not a regular file; it was not opened",
                refused(link, 1 << 20).getMessage());
    }

    @Test
    void missing_dangling_looping_and_folders_are_each_named() throws IOException {
        Path missing = dir.resolve("nope.yaml");
        BoundedFile.Refused e = refused(missing, 10);
        assertEquals(missing + ": does not exist", e.getMessage());
        assertTrue(e.missing());
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.yaml"), dir.resolve("gone.yaml"));
        assertEquals(dangling + ": is a symbolic link to a file that does not exist",
                refused(dangling, 10).getMessage());
        Path a = dir.resolve("a.yaml");
        Path b = dir.resolve("b.yaml");
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);
        assertEquals(a + ": is a symbolic link that leads round in a loop", refused(a, 10).getMessage());
        assertEquals(dir + ": is a folder, not a file", refused(dir, 10).getMessage());
    }

    @Test
    void a_file_over_the_bound_is_refused_by_its_size() throws IOException {
        Path big = Files.write(dir.resolve("big.json"), new byte[11]);
        assertEquals(big + ": is 11 bytes, over the 10-byte limit; it was not read", refused(big, 10).getMessage());
        assertEquals(10, BoundedFile.read(Files.write(dir.resolve("ten.json"), new byte[10]), 10).length);
    }

    /** Makes a named pipe at {@code path}, where the platform has mkfifo. */
    public static boolean mkfifo(Path path) {
        try {
            Process p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.exists(path);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
