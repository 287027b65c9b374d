package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class Langchain4jSdkTest {

    @Test
    void theLabelNamesTheArtifactAndTheVersionOnTheClasspath() {
        assertEquals("langchain4j-open-ai 1.19.0", Langchain4jSdk.LABEL);
    }
}
