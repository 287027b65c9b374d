package dev.resilienceharness.init;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SdkTest {

    @Test
    void finds_each_sdk_by_its_coordinates() {
        assertEquals(List.of(Sdk.OPENAI_JAVA), Sdk.detect(List.of("com.openai:openai-java", "org.slf4j:slf4j-api")));
        assertEquals(List.of(Sdk.ANTHROPIC_JAVA), Sdk.detect(List.of("com.anthropic:anthropic-java")));
        assertEquals(List.of(Sdk.SPRING_AI), Sdk.detect(List.of("org.springframework.ai:spring-ai-openai")));
        assertEquals(List.of(Sdk.LANGCHAIN4J), Sdk.detect(List.of("dev.langchain4j:langchain4j-open-ai")));
    }

    @Test
    void prefers_spring_ai_over_the_openai_java_it_brings() {
        assertEquals(List.of(Sdk.SPRING_AI, Sdk.OPENAI_JAVA),
                Sdk.detect(List.of("com.openai:openai-java", "org.springframework.ai:spring-ai-openai")));
    }

    @Test
    void finds_nothing_in_a_project_without_an_sdk() {
        assertEquals(List.of(), Sdk.detect(List.of("org.junit.jupiter:junit-jupiter", "com.openai.other:openai-java",
                "com.openai:other")));
    }
}
