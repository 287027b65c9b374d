package dev.resilienceharness.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.Violation;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The cassettes a shard's scenarios need that another shard checks and reports. A shard reads them too, so that a
 * scenario whose cassette is broken is held back in its own shard exactly as in an unsharded run; their violations
 * only hold scenarios back, and the shard that owns the file reports them.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class NeededCassettes {

    private NeededCassettes() {
    }

    /**
     * The violations of the cassettes {@code mine}'s scenarios need and {@code shard} does not own.
     *
     * @param mine         the config with this shard's scenarios only
     * @param fingerprints each op's request fingerprint, as the shard's own integrity check worked them out
     * @throws IOException when the cassette folder cannot be listed
     */
    public static List<Violation> ofOtherShards(HarnessConfig mine, Shard shard, Map<String, String> fingerprints)
            throws IOException {
        return ofOtherShards(mine, shard, fingerprints, null);
    }

    /**
     * As {@link #ofOtherShards(HarnessConfig, Shard, Map)}, handing {@code digest} (may be {@code null}) what the
     * files read hold, for the record of the check.
     */
    public static List<Violation> ofOtherShards(HarnessConfig mine, Shard shard, Map<String, String> fingerprints,
            CassetteIntegrity.Reads digest) throws IOException {
        if (shard.whole() || mine.scenarios().isEmpty()) {
            return List.of();
        }
        Set<String> needed = new HashSet<>();
        for (Scenario s : mine.scenarios()) {
            for (String op : s.ops()) {
                String fp = fingerprints.get(op);
                if (fp != null) {
                    needed.add(fp + ".json");
                }
            }
        }
        return CassetteIntegrity.check(mine, false, (file, bytes, parsed) -> { },
                file -> !shard.ownsFile(file) && needed.contains(file.getFileName().toString()),
                (cassette, size) -> { }, null, digest).violations();
    }
}
