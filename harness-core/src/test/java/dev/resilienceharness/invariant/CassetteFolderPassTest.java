package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CassetteFolderPassTest {

    @TempDir
    Path folder;

    /** Counts what it is handed. */
    private static final class Counting implements CassetteFolderPass.FileCheck {
        final Map<String, Integer> read = new ConcurrentHashMap<>();
        final Map<String, String> unreadable = new ConcurrentHashMap<>();

        @Override
        public void read(Path file, byte[] bytes) {
            read.merge(file.getFileName() + " " + new String(bytes, StandardCharsets.UTF_8).length(), 1,
                    Integer::sum);
        }

        @Override
        public void unreadable(Path file, CassetteException e) {
            unreadable.put(file.getFileName().toString(), e.getMessage());
        }
    }

    @Test
    void handsEveryFileOnceToEveryCheckAndEveryUnreadableFileToo() throws Exception {
        Files.writeString(folder.resolve("resilience.yaml"),
                "version: 1\npolicy: {max_total_wait: 1s}\nscenarios:\n  - {name: s, ops: [plan]}\n");
        Path cassettes = Files.createDirectories(folder.resolve("cassettes"));
        Files.writeString(cassettes.resolve("a.json"), "{}");
        Files.writeString(cassettes.resolve("b.json"), "[1, 2]");
        Files.createDirectories(cassettes.resolve("c.json"));
        HarnessConfig config = ConfigLoader.load(folder.resolve("resilience.yaml"));
        List<Path> files = CassetteFolderPass.files(config);
        assertEquals(3, files.size());

        Counting one = new Counting();
        Counting two = new Counting();
        CassetteFolderPass.run(config, files, one, two);

        for (Counting check : List.of(one, two)) {
            assertEquals(Map.of("a.json 2", 1, "b.json 6", 1), check.read);
            assertEquals(List.of("c.json"), List.copyOf(check.unreadable.keySet()));
        }
    }
}
