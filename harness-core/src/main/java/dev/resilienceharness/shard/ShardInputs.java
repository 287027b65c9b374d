package dev.resilienceharness.shard;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CheckRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * What makes two shards "ran on the same inputs": a SHA-256 over the yaml (and the file its {@code requests_from}
 * names), every entry of the cassette folder by name and content, the secrets baseline, and the options that change a
 * result. Paths are left out, so shards checked out in different folders on different CI machines agree.
 */
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
        MessageDigest all = sha256();
        field(all, "resilience-shard-inputs/1");
        field(all, options);
        field(all, CheckRecord.digestOf(config.file()));
        TreeSet<Path> others = new TreeSet<>();
        config.sources().values().forEach(s -> others.add(s.file()));
        others.remove(config.file());
        for (Path other : others) {
            field(all, other.getFileName().toString());
            field(all, CheckRecord.digestOf(other));
        }
        List<Path> entries = entries(config.cassettes());
        String[] digests = new String[entries.size()];
        IntStream.range(0, entries.size()).parallel().forEach(i -> digests[i] = CheckRecord.digestOf(entries.get(i)));
        field(all, "cassettes " + entries.size());
        for (int i = 0; i < entries.size(); i++) {
            field(all, entries.get(i).getFileName().toString());
            field(all, digests[i]);
        }
        Path baseline = config.redaction().baseline();
        field(all, baseline == null ? "no baseline" : "baseline " + CheckRecord.digestOf(baseline));
        return HexFormat.of().formatHex(all.digest());
    }

    private static List<Path> entries(Path folder) throws IOException {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            ds.forEach(entries::add);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return List.of();
        }
        entries.sort(null);
        return entries;
    }

    private static void field(MessageDigest md, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        md.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        md.update(bytes);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
