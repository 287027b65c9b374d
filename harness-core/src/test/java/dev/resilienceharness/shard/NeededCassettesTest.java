package dev.resilienceharness.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.Violation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NeededCassettesTest {

    @TempDir
    Path dir;

    @Test
    void theBrokenAndMissingCassettesOfTheShardsScenariosThatOtherShardsOwnAreFound() throws Exception {
        HarnessConfig config = ShardedRun.load(ShardedRun.corpus(dir));
        Shard first = new Shard(1, 4);
        HarnessConfig mine = first.scenariosOf(config);
        CassetteIntegrity.Report own = CassetteIntegrity.check(config, false, (f, b) -> { }, first::ownsFile);
        List<Violation> found = NeededCassettes.ofOtherShards(mine, first, own.fingerprints());
        // needs-broken-0 needs the broken file of shard 4, needs-absent-1 the absent file of shard 3.
        assertEquals(List.of("broken", "absent"), found.stream().map(Violation::op).toList());
    }

    @Test
    void theWholeWorkNeedsNothingMore() throws Exception {
        HarnessConfig config = ShardedRun.load(ShardedRun.corpus(dir));
        assertEquals(List.of(), NeededCassettes.ofOtherShards(config, Shard.WHOLE,
                CassetteIntegrity.check(config, false).fingerprints()));
    }
}
