package dev.resilienceharness.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.charset.StandardCharsets;
import org.apiguardian.api.API;

/**
 * Texts read lately from bytes, by a hash of those bytes, so that a text met again becomes the one {@code String} made
 * the first time rather than one per occurrence: a property name such as {@code role} in ten thousand cassettes, a key
 * or a short value in a yaml's ten thousand requests. The bytes are Latin-1, one character each. A slot holds the last
 * text hashed to it, and a different text hashed there takes its place. Not thread-safe: one per reader, or per thread.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class RecentTexts {

    private final String[] slots;

    /** A table of {@code size} slots, a power of two. */
    public RecentTexts(int size) {
        if (Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("the slots are a power of two, not " + size);
        }
        this.slots = new String[size];
    }

    /** The hash {@link #text} takes for {@code b[start, end)}: {@code 31 * h + byte} over them, from 0. */
    public static int hash(byte[] b, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            h = 31 * h + b[i];
        }
        return h;
    }

    /**
     * The text of {@code b[start, start + length)}, whose {@link #hash} is {@code hash} (a reader may take it while it
     * scans the bytes): the one met last in its slot when it is equal, else a new one, kept there for next time.
     */
    public String text(byte[] b, int start, int length, int hash) {
        int slot = (hash ^ hash >>> 16) & (slots.length - 1);
        String known = slots[slot];
        if (known != null && same(known, b, start, length)) {
            return known;
        }
        String text = new String(b, start, length, StandardCharsets.ISO_8859_1);
        slots[slot] = text;
        return text;
    }

    private static boolean same(String known, byte[] b, int start, int length) {
        if (known.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (known.charAt(i) != (char) (b[start + i] & 0xff)) {
                return false;
            }
        }
        return true;
    }
}
