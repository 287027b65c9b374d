package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InputStream;
import org.apiguardian.api.API;

/**
 * Reads a file whose size was just taken straight into an array of that size, as the cassette reader and the config
 * loader read theirs: a read of unknown length would gather parts and copy them into another array at the end. A file
 * that has grown since is read on, but never past one byte over the bound, so that the caller can refuse it.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class BoundedRead {

    private BoundedRead() {
    }

    /**
     * The bytes of {@code in}, {@code size} of them when its size was taken; at most {@code max + 1}, and more than
     * {@code max} only when the file holds more than {@code max}.
     */
    public static byte[] upTo(InputStream in, long size, long max) throws IOException {
        return dev.resilienceharness.files.BoundedFile.upTo(in, size, max);
    }
}
