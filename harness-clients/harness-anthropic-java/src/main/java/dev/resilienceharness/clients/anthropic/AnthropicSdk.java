package dev.resilienceharness.clients.anthropic;

import com.anthropic.core.Properties;

/** The SDK this module adapts, as the run's trace and its violation lines name it. */
final class AnthropicSdk {

    private AnthropicSdk() {
    }

    /** {@code anthropic-java 3.16.0}: the SDK's name and the version on the class path. */
    static final String LABEL = "anthropic-java " + Properties.getPackageVersion();
}
