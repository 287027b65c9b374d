package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BoundedReadTest {

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    private static byte[] read(byte[] content, long size, long max) throws IOException {
        return BoundedRead.upTo(new ByteArrayInputStream(content), size, max);
    }

    @Test
    void readsAFileOfTheSizeTakenWhole() throws IOException {
        assertArrayEquals(bytes(100), read(bytes(100), 100, 1000));
        assertArrayEquals(new byte[0], read(new byte[0], 0, 1000));
    }

    @Test
    void aFileThatShrankOrGrewSinceIsReadAsItIsNow() throws IOException {
        assertArrayEquals(bytes(60), read(bytes(60), 100, 1000));
        assertArrayEquals(bytes(300), read(bytes(300), 100, 1000));
        // A size of 0 taken for a file that has content (a special file, say) still reads it.
        assertArrayEquals(bytes(5), read(bytes(5), 0, 1000));
    }

    @Test
    void neverReadsMoreThanOneBytePastTheBound() throws IOException {
        assertArrayEquals(bytes(1000), read(bytes(1000), 1000, 1000));
        assertArrayEquals(bytes(1001), read(bytes(5000), 1000, 1000));
        assertArrayEquals(bytes(1001), read(bytes(5000), 10, 1000));
        assertArrayEquals(bytes(1001), read(bytes(5000), 4000, 1000));
        assertEquals(1000, read(bytes(1000), 10, 1000).length);
        assertArrayEquals(Arrays.copyOf(bytes(1001), 1001), read(bytes(1001), 1001, 1000));
    }
}
