package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {

    @Test
    void replacesTheFileAndLeavesNoTemporaryBehind(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("sub/out.json");
        AtomicFile.write(target, "first".getBytes());
        AtomicFile.write(target, "second".getBytes());
        assertEquals("second", Files.readString(target));
        try (Stream<Path> files = Files.list(target.getParent())) {
            assertEquals(1, files.count());
        }
    }
}
