package dev.resilienceharness.clients.langchain4j;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The SDK this adapter drives, as the run's trace and violation lines name it. */
final class Langchain4jSdk {

    /** {@code langchain4j-open-ai <version>}, the version read from the jar on the classpath. */
    static final String LABEL = "langchain4j-open-ai " + version();

    private Langchain4jSdk() {
    }

    private static String version() {
        String resource = "/META-INF/maven/dev.langchain4j/langchain4j-open-ai/pom.properties";
        try (InputStream in = dev.langchain4j.model.openai.OpenAiChatModel.class.getResourceAsStream(resource)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank()) {
                    return v.trim();
                }
            }
        } catch (IOException unreadable) {
            // Fall through: the label then says the version is unknown.
        }
        return "(unknown version)";
    }
}
