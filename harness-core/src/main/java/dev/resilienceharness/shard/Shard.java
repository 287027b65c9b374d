package dev.resilienceharness.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One part of the work of a check spread over {@code count} CI jobs ({@code -Dresilience.shard=K/N}). A scenario
 * belongs to the shard its name hashes to, a cassette to the shard its file name hashes to, and an explored fault
 * plan to the shard its number falls to. The hash is the first 8 bytes of the SHA-256 of the name's UTF-8 bytes, as
 * an unsigned number, modulo {@code count}: it depends on nothing but the name, so adding, removing or reordering
 * scenarios moves no other scenario to another shard, on any machine or JVM.
 *
 * @param index the shard's number, 1 to {@code count}
 * @param count how many shards the work is split into, 1 or more
 */
@API(status = INTERNAL, since = "0.1.0")
public record Shard(int index, int count) {

    /** The whole work: one shard of one. */
    public static final Shard WHOLE = new Shard(1, 1);

    /** The most shards a check can be split into. */
    public static final int MAX_COUNT = 1024;

    public Shard {
        if (count < 1 || count > MAX_COUNT || index < 1 || index > count) {
            throw new IllegalArgumentException(ShardMessages.badShard(index + "/" + count));
        }
    }

    /**
     * The shard {@code text} names: {@code K/N} with {@code 1 <= K <= N <= 1024}, digits only.
     *
     * @throws IllegalArgumentException naming the text and what is expected
     */
    public static Shard parse(String text) {
        int slash = text == null ? -1 : text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException(ShardMessages.badShard(text));
        }
        Integer k = digits(text.substring(0, slash));
        Integer n = digits(text.substring(slash + 1));
        if (k == null || n == null || n < 1 || n > MAX_COUNT || k < 1 || k > n) {
            throw new IllegalArgumentException(ShardMessages.badShard(text));
        }
        return new Shard(k, n);
    }

    /** A number of one to four digits, or {@code null}: no sign, no spaces, no leading zero. */
    private static Integer digits(String s) {
        if (s.isEmpty() || s.length() > 4 || s.charAt(0) == '0') {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return null;
            }
        }
        return Integer.parseInt(s);
    }

    /** Whether this is the whole work rather than a part of it. */
    public boolean whole() {
        return count == 1;
    }

    /** Whether the scenario, cassette or other unit named {@code name} belongs to this shard. */
    public boolean owns(String name) {
        return whole() || Long.remainderUnsigned(hash(name), count) == index - 1;
    }

    /** Whether the cassette file belongs to this shard, by its file name alone (not the folder it is in). */
    public boolean ownsFile(Path file) {
        return owns(file.getFileName().toString());
    }

    /** Whether the {@code number}-th explored fault plan of a scenario (counting from 1) belongs to this shard. */
    public boolean ownsPlan(long number) {
        return whole() || Math.floorMod(number - 1, (long) count) == index - 1;
    }

    /** This shard's scenarios of {@code scenarios}, in their order. */
    public List<Scenario> scenarios(List<Scenario> scenarios) {
        return whole() ? scenarios : scenarios.stream().filter(s -> owns(s.name())).toList();
    }

    /** {@code config} with this shard's scenarios only. */
    public HarnessConfig scenariosOf(HarnessConfig config) {
        return whole() ? config : config.withScenarios(scenarios(config.scenarios()));
    }

    /** The 64-bit hash a name is sharded by: the first 8 bytes of SHA-256 over its UTF-8 bytes. */
    static long hash(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** {@code K/N}, as {@code -Dresilience.shard} takes it. */
    @Override
    public String toString() {
        return index + "/" + count;
    }
}
