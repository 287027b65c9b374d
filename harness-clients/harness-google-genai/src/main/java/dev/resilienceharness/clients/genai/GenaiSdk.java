package dev.resilienceharness.clients.genai;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The SDK this module adapts, as the run's trace and its violation lines name it. */
final class GenaiSdk {

    private GenaiSdk() {
    }

    /** {@code google-genai 2.3.0}: the SDK's name and the version on the class path. */
    static final String LABEL = "google-genai " + version();

    /** The version from the jar's Maven metadata (the SDK keeps its own constant package-private). */
    private static String version() {
        Properties p = new Properties();
        try (InputStream in = com.google.genai.Client.class.getResourceAsStream(
                "/META-INF/maven/com.google.genai/google-genai/pom.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return p.getProperty("version", "unknown");
    }
}
