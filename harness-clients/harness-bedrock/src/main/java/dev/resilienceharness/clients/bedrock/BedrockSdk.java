package dev.resilienceharness.clients.bedrock;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The SDK this module adapts, as the run's trace and its violation lines name it. */
final class BedrockSdk {

    private BedrockSdk() {
    }

    /** {@code aws-sdk-java-v2 bedrockruntime 2.59.1}: the SDK's name and the version on the class path. */
    static final String LABEL = "aws-sdk-bedrockruntime " + version();

    private static String version() {
        Properties p = new Properties();
        try (InputStream in = software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient.class
                .getResourceAsStream("/META-INF/maven/software.amazon.awssdk/bedrockruntime/pom.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return p.getProperty("version", software.amazon.awssdk.core.util.VersionInfo.SDK_VERSION);
    }
}
