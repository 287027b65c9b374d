package dev.resilienceharness.init;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apiguardian.api.API;

/** The SDKs the harness has an adapter for, as a project's dependencies name them, and what init writes for each. */
@API(status = INTERNAL, since = "0.1.0")
public enum Sdk {
    // Spring AI first: its OpenAI module brings openai-java along, and the team's code calls Spring AI.
    SPRING_AI("Spring AI", "org.springframework.ai", "spring-ai-", "harness-spring-ai", "SpringAiLoop.java.template"),
    LANGCHAIN4J("langchain4j", "dev.langchain4j", "langchain4j", "harness-langchain4j", null),
    ANTHROPIC_JAVA("anthropic-java", "com.anthropic", "anthropic-java", "harness-anthropic-java", null),
    OPENAI_JAVA("openai-java", "com.openai", "openai-java", "harness-openai-java", "OpenAiLoop.java.template");

    private final String title;
    private final String groupId;
    private final String artifactPrefix;
    private final String adapter;
    private final String loopTemplate;

    Sdk(String title, String groupId, String artifactPrefix, String adapter, String loopTemplate) {
        this.title = title;
        this.groupId = groupId;
        this.artifactPrefix = artifactPrefix;
        this.adapter = adapter;
        this.loopTemplate = loopTemplate;
    }

    /** The SDK's name as its users know it. */
    public String title() {
        return title;
    }

    /** The artifactId of the harness's adapter for this SDK (groupId {@code dev.resilienceharness}). */
    public String adapter() {
        return adapter;
    }

    /** The loop template written for this SDK, or {@code null} when init writes the built-in-loop variant. */
    String loopTemplate() {
        return loopTemplate;
    }

    /** Whether a dependency {@code groupId:artifactId} is this SDK. */
    boolean matches(String coordinates) {
        int colon = coordinates.indexOf(':');
        return colon > 0 && coordinates.substring(0, colon).equals(groupId)
                && coordinates.substring(colon + 1).startsWith(artifactPrefix);
    }

    /** The SDKs among the dependencies ({@code groupId:artifactId} each), in this enum's order of preference. */
    public static List<Sdk> detect(Collection<String> dependencies) {
        List<Sdk> found = new ArrayList<>();
        for (Sdk sdk : values()) {
            if (dependencies.stream().anyMatch(sdk::matches)) {
                found.add(sdk);
            }
        }
        return found;
    }
}
