package dev.resilienceharness.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

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
    void every_sdk_has_a_loop_and_a_yaml_template_and_its_providers_key() {
        for (Sdk sdk : Sdk.values()) {
            assertNotNull(Sdk.class.getResource(sdk.loopTemplate()), sdk + " " + sdk.loopTemplate());
            assertNotNull(Sdk.class.getResource(sdk.yamlTemplate()), sdk + " " + sdk.yamlTemplate());
        }
        assertEquals("ANTHROPIC_API_KEY", Sdk.ANTHROPIC_JAVA.keyEnv());
        assertEquals("https://api.anthropic.com/v1", Sdk.ANTHROPIC_JAVA.baseUrl());
        for (Sdk sdk : List.of(Sdk.OPENAI_JAVA, Sdk.SPRING_AI, Sdk.LANGCHAIN4J)) {
            assertEquals("OPENAI_API_KEY", sdk.keyEnv(), sdk.title());
            assertEquals("https://api.openai.com/v1", sdk.baseUrl(), sdk.title());
        }
    }

    @Test
    void finds_nothing_in_a_project_without_an_sdk() {
        assertEquals(List.of(), Sdk.detect(List.of("org.junit.jupiter:junit-jupiter", "com.openai.other:openai-java",
                "com.openai:other")));
    }
}
