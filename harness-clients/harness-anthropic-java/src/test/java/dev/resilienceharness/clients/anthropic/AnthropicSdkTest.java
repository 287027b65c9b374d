package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AnthropicSdkTest {

    @Test
    void theLabelIsTheSdksNameAndTheVersionOnTheClassPath() {
        // The version the module is built against (harness-clients/pom.xml); the SDK reports it itself.
        assertEquals("anthropic-java 3.16.0", AnthropicSdk.LABEL);
    }
}
