package dev.resilienceharness.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShardMessagesTest {

    @Test
    void aShardSaysWhichPartOfTheWorkItDoes() {
        Shard shard = new Shard(2, 4);
        assertEquals("Shard 2/4: 17 of 74 scenarios (by a hash of their names)", ShardMessages.scenarios(shard, 17, 74));
        assertEquals("Shard 2/4: 1 of 1 scenario (by a hash of their names)", ShardMessages.scenarios(shard, 1, 1));
        assertEquals("Shard 2/4: 3 of 10 cassettes (by a hash of their file names)",
                ShardMessages.cassettes(shard, 3, 10));
        assertEquals("Shard 2/4: fault plans 2, 6, 10 ... of each scenario's search (one in 4)",
                ShardMessages.plans(shard));
    }

    @Test
    void mergeProblemsNameTheFolders() {
        Path a = Path.of("shards", "a");
        Path b = Path.of("shards", "b");
        assertEquals("shard 1/2 is in more than one folder: " + a + " and " + b + "; give each shard once",
                ShardMessages.duplicate(new Shard(1, 2), List.of(a, b)));
        assertEquals("shard 2/2 is missing: none of the 1 folder holds it; wait for its job, or add its output folder"
                + " to resilience.merge.from", ShardMessages.missing(new Shard(2, 2), 1));
        assertEquals(b + " (shard 2/2) ran on other inputs than " + a + " (shard 1/2): the yaml, a cassette, the"
                + " baseline or an option differs (inputs 0123456789ab against ba9876543210); run every shard on the"
                + " same commit and options", ShardMessages.otherInputs(b, new Shard(2, 2),
                        "0123456789abcdef0123", a, new Shard(1, 2), "ba9876543210fedc"));
        assertEquals("Merged 1 shard: 2 scenarios, 3 cassettes", ShardMessages.merged(1, 2, 3));
    }
}
