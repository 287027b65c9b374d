package dev.resilienceharness.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A cassette's name (docs cassettes.md): the first 16 lowercase hex digits of SHA-256 over the UTF-8 bytes of a
 * request's canonical JSON, as the workshop's {@code fingerprint(payload)} computes it. The caller removes
 * volatile request paths first.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Fingerprint {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    // MessageDigest is not thread-safe and costly to look up; one per thread, always reset after use.
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(Fingerprint::sha256);

    private Fingerprint() {
    }

    /**
     * The fingerprint of a value.
     *
     * @throws IllegalArgumentException when the value has no canonical JSON (see {@link CanonicalJson})
     */
    public static String of(JsonNode node) {
        return ofCanonical(CanonicalJson.write(node));
    }

    /**
     * Sets up what the first fingerprint of a JVM needs: the security providers' lookup of SHA-256 (some 15 ms
     * in a cold JVM) and the digest's classes, the canonical writer and its decimals. A JVM with a core to spare
     * does it there while it reads its yaml, rather than have every thread of its cassette pass wait for the first.
     */
    public static void prepare() {
        of(JsonNodeFactory.instance.objectNode().put("model", "m").put("temperature", 0.25));
    }

    /** The fingerprint of an already canonical JSON text. */
    public static String ofCanonical(String canonicalJson) {
        byte[] hash = SHA_256.get().digest(canonicalJson.getBytes(StandardCharsets.UTF_8));
        char[] hex = new char[16];
        for (int i = 0; i < 8; i++) {
            hex[2 * i] = HEX[(hash[i] >>> 4) & 0xf];
            hex[2 * i + 1] = HEX[hash[i] & 0xf];
        }
        return new String(hex);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
