package dev.resilienceharness.cassette;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads a file whose size was just taken straight into an array of that size, as the cassette reader and the config
 * loader read theirs: a read of unknown length would gather parts and copy them into another array at the end. A file
 * that has grown since is read on, but never past one byte over the bound, so that the caller can refuse it.
 */
public final class BoundedRead {

    private BoundedRead() {
    }

    /**
     * The bytes of {@code in}, {@code size} of them when its size was taken; at most {@code max + 1}, and more than
     * {@code max} only when the file holds more than {@code max}.
     */
    public static byte[] upTo(InputStream in, long size, long max) throws IOException {
        byte[] bytes = new byte[(int) Math.min(size, max + 1)];
        int n = in.readNBytes(bytes, 0, bytes.length);
        if (n < bytes.length) {
            return Arrays.copyOf(bytes, n);
        }
        if (n > max) {
            return bytes;
        }
        // One byte first: a file that did not grow, as nearly every one, is then read without another buffer.
        int next = in.read();
        if (next < 0) {
            return bytes;
        }
        byte[] rest = in.readNBytes((int) (max - n));
        byte[] all = Arrays.copyOf(bytes, n + 1 + rest.length);
        all[n] = (byte) next;
        System.arraycopy(rest, 0, all, n + 1, rest.length);
        return all;
    }
}
