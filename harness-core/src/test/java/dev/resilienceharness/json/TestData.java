package dev.resilienceharness.json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reads the tables under src/test/resources. */
final class TestData {

    private TestData() {
    }

    static byte[] bytes(String resource) {
        try (InputStream in = TestData.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> lines(String resource) {
        return new String(bytes(resource), StandardCharsets.UTF_8).lines().toList();
    }
}
