package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyDistributionTest {

    @TempDir
    Path dir;

    @Test
    void theMedianP95AndSlowestAreNearestRank() {
        List<Timing> samples = new ArrayList<>();
        for (long ms = 1; ms <= 20; ms++) {
            samples.add(new Timing(ms * 10, ms * 100));
        }
        LatencyDistribution d = LatencyDistribution.of("cassettes/a.json", "plan", new Timing(10L, 100L, samples));
        assertEquals(20, d.samples());
        assertEquals(new LatencyDistribution.Spread(100, 190, 200), d.firstToken());
        assertEquals(new LatencyDistribution.Spread(1000, 1900, 2000), d.total());
    }

    @Test
    void aCassetteWithoutSamplesHasNoDistribution() {
        assertNull(LatencyDistribution.of("a", "plan", new Timing(1L, 2L)));
        assertNull(LatencyDistribution.of("a", "plan", null));
        assertNull(LatencyDistribution.of("a", "plan", new Timing(null, 2L, List.of(new Timing(null, 2L))))
                .firstToken());
    }

    @Test
    void theCassettesOfAConfigWithSamplesAreListedWithTheirOps() throws Exception {
        HarnessConfig config = TestProject.create(dir, "version: 1\npolicy: {max_total_wait: 30s}\nscenarios:\n"
                + "  - name: s\n    ops: [plan, patch]\n", "plan", "patch");
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        store.write(config.request("patch"), Json.readTree("{}"), new Timing(null, 40L,
                List.of(new Timing(null, 40L), new Timing(null, 90L))));
        List<LatencyDistribution> rows = LatencyDistribution.of(config);
        assertEquals(1, rows.size());
        assertEquals("patch", rows.get(0).op());
        assertEquals(new LatencyDistribution.Spread(40, 90, 90), rows.get(0).total());
        assertEquals("cassettes/" + store.fingerprint(config.request("patch")) + ".json", rows.get(0).cassette());
    }
}
