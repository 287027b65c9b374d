package dev.resilienceharness.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.incremental.InputDigest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.apiguardian.api.API;

/**
 * What makes two shards "ran on the same inputs": a SHA-256 over the yaml (and the file its {@code requests_from}
 * names), every entry of the cassette folder by name and content, the secrets baseline, and the options that change a
 * result. Paths are left out, so shards checked out in different folders on different CI machines agree.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ShardInputs {

    private ShardInputs() {
    }

    /**
     * The digest, as 64 hex digits.
     *
     * @param options the options that change a result, as the caller spells them (runs, failOnOrphans, loop, ...)
     * @throws IOException when the cassette folder exists but cannot be listed
     */
    public static String digest(HarnessConfig config, String options) throws IOException {
        InputDigest all = new InputDigest()
                .field("resilience-shard-inputs/1")
                .field(options)
                .field(InputDigest.of(config.file()));
        TreeSet<Path> others = new TreeSet<>();
        config.sources().values().forEach(s -> others.add(s.file()));
        others.remove(config.file());
        for (Path other : others) {
            all.field(other.getFileName().toString()).field(InputDigest.of(other));
        }
        List<Path> entries = InputDigest.entries(config.cassettes());
        String[] digests = InputDigest.ofAll(entries);
        all.field("cassettes " + entries.size());
        for (int i = 0; i < entries.size(); i++) {
            all.field(entries.get(i).getFileName().toString()).field(digests[i]);
        }
        Path baseline = config.redaction().baseline();
        all.field(baseline == null ? "no baseline" : "baseline " + InputDigest.of(baseline));
        return all.hex();
    }
}
