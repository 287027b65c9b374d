package dev.resilienceharness.incremental;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.concurrent.Indices;
import dev.resilienceharness.invariant.CassetteIntegrity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;

/**
 * The digest of a full check's inputs ({@link CheckRecord#inputs}), taken from the pass itself: the cassette folder's
 * entries as the pass listed them, and each cassette's bytes hashed where the pass read them. A check that is to be
 * remembered then reads the folder once, not twice, and its record names exactly the files, and the bytes, its result
 * comes from: a file added, removed or changed while it ran differs from what the record names, so the next check runs
 * in full.
 *
 * <p>The yaml's digest is of the bytes the check loaded, or taken when this is made, and the baseline's is taken then,
 * before the pass reads anything. The entries no pass reads (what is not a {@code *.json} file, and the cassettes of
 * other shards that this one's scenarios do not need) are digested after it: nothing the check finds depends on what
 * they hold. The digest equals what {@link CheckRecord#inputs} gives for the same files.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class PassDigest implements CassetteIntegrity.Reads {

    private final String identity;
    private final Path yaml;
    private final String yamlDigest;
    private final Path cassettes;
    private final Path baseline;
    private final String baselineDigest;
    private final Map<Path, String> read = new ConcurrentHashMap<>();
    private volatile CassetteStore.Listing listing;

    private PassDigest(String identity, Path yaml, String yamlDigest, Path cassettes, Path baseline) {
        this.identity = identity;
        this.yaml = yaml;
        this.yamlDigest = yamlDigest;
        this.cassettes = cassettes;
        this.baseline = baseline;
        this.baselineDigest = baseline == null ? "" : InputDigest.of(baseline);
    }

    /**
     * Begins the digest of a check of {@code yaml} (with {@code identity}, as {@link CheckRecord#inputs} takes it),
     * whose cassette folder and baseline the yaml names: the yaml and the baseline are digested now.
     */
    public static PassDigest begin(String identity, Path yaml, Path cassettes, Path baseline) {
        return begin(identity, yaml, InputDigest.of(yaml), cassettes, baseline);
    }

    /**
     * As {@link #begin(String, Path, Path, Path)}, with the yaml's digest taken already, of the bytes the check loaded
     * ({@link InputDigest#ofRead}).
     */
    public static PassDigest begin(String identity, Path yaml, String yamlDigest, Path cassettes, Path baseline) {
        return new PassDigest(identity, yaml, yamlDigest, cassettes, baseline);
    }

    /** The cassette folder the pass is to list. */
    @Override
    public Path cassettes() {
        return cassettes;
    }

    /**
     * The pass listed the cassette folder: these are the entries the digest names. A later pass of the same check (a
     * shard's look at the cassettes it needs from other shards) reads more files, but lists nothing new here.
     */
    @Override
    public synchronized void listed(CassetteStore.Listing entries) {
        if (listing == null) {
            listing = entries;
        }
    }

    /** The pass read {@code file} (from several threads at once); what a file held when first read counts. */
    @Override
    public void read(Path file, CassetteReader.FileBytes bytes) {
        read.computeIfAbsent(file, f -> InputDigest.ofContent(bytes.bytes(), bytes.link()));
    }

    /** The pass could not read {@code file}: what it is is digested now, as it failed to read it. */
    @Override
    public void unread(Path file) {
        read.computeIfAbsent(file, InputDigest::of);
    }

    /**
     * The digest, as {@link CheckRecord#inputs} writes it; {@code null} when no pass listed the cassette folder, so that
     * there is nothing to remember.
     */
    public String inputs() {
        CassetteStore.Listing entries = listing;
        if (entries == null) {
            return null;
        }
        List<Path> all = entries.entries();
        String[] digests = new String[all.size()];
        List<Integer> unread = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            digests[i] = read.get(all.get(i));
            if (digests[i] == null) {
                unread.add(i);
            }
        }
        Indices.forEach(unread.size(), k -> digests[unread.get(k)] = InputDigest.of(all.get(unread.get(k))));
        return CheckRecord.inputs(identity, yaml, yamlDigest, cassettes, all, digests, baseline, baselineDigest);
    }
}
