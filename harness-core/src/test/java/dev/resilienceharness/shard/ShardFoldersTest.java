package dev.resilienceharness.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardFoldersTest {

    @TempDir
    Path dir;

    @BeforeEach
    void folders() throws Exception {
        for (String f : List.of("shards/shard-1", "shards/shard-2", "shards/shard-3", "shards/other", "out/a/x")) {
            Files.createDirectories(dir.resolve(f));
        }
        Files.writeString(dir.resolve("shards/shard-4"), "a file, not a folder");
    }

    @Test
    void aCommaSeparatedListIsTakenInOrder() throws Exception {
        assertEquals(List.of(dir.resolve("shards/shard-2"), dir.resolve("shards/shard-1")),
                ShardFolders.resolve(dir, "shards/shard-2, shards/shard-1,"));
        assertEquals(List.of(dir.resolve("out/a/x")), ShardFolders.resolve(dir, dir.resolve("out/a/x").toString()));
    }

    @Test
    void aGlobMatchesFoldersOnly() throws Exception {
        assertEquals(List.of(dir.resolve("shards/shard-1"), dir.resolve("shards/shard-2"),
                dir.resolve("shards/shard-3")), ShardFolders.resolve(dir, "shards/shard-*"));
        assertEquals(List.of(dir.resolve("shards/other"), dir.resolve("shards/shard-1"),
                dir.resolve("shards/shard-2"), dir.resolve("shards/shard-3")), ShardFolders.resolve(dir, "shards/*"));
        assertEquals(List.of(dir.resolve("out/a/x")), ShardFolders.resolve(dir, "*/a/*"));
    }

    @Test
    void nothingToMergeIsNamed() {
        assertEquals(List.of(ShardMessages.noFolders()),
                assertThrows(ShardProblems.class, () -> ShardFolders.resolve(dir, " , ")).problems());
        assertEquals(List.of("resilience.merge.from: 'gone/*' matches no folder under " + dir
                + "; download every shard's output first", dir.resolve("shards/shard-4") + ": no such folder;"
                + " download the shard's output there, or fix resilience.merge.from"),
                assertThrows(ShardProblems.class, () -> ShardFolders.resolve(dir, "gone/*,shards/shard-4"))
                        .problems());
    }
}
