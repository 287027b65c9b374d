package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

    @Test
    void replacesTheFileAndLeavesNoTemporaryBehind(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("sub/out.json");
        AtomicFiles.write(target, "first".getBytes());
        AtomicFiles.write(target, "second".getBytes());
        assertEquals("second", Files.readString(target));
        try (Stream<Path> files = Files.list(target.getParent())) {
            assertEquals(1, files.count());
        }
    }
}
