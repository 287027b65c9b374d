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
    SPRING_AI("Spring AI", "org.springframework.ai", "spring-ai-", "harness-spring-ai", "SpringAiLoop.java.template",
            "sdk.yaml.template", ProjectInit.DEFAULT_BASE_URL, "OPENAI_API_KEY"),
    // langchain4j's exceptions carry no headers, so its yaml rehearses no stated Retry-After (see its template).
    LANGCHAIN4J("langchain4j", "dev.langchain4j", "langchain4j", "harness-langchain4j",
            "LangChain4jLoop.java.template", "langchain4j.yaml.template", ProjectInit.DEFAULT_BASE_URL,
            "OPENAI_API_KEY"),
    ANTHROPIC_JAVA("anthropic-java", "com.anthropic", "anthropic-java", "harness-anthropic-java",
            "AnthropicLoop.java.template", "sdk.yaml.template", "https://api.anthropic.com/v1", "ANTHROPIC_API_KEY"),
    OPENAI_JAVA("openai-java", "com.openai", "openai-java", "harness-openai-java", "OpenAiLoop.java.template",
            "sdk.yaml.template", ProjectInit.DEFAULT_BASE_URL, "OPENAI_API_KEY");

    private final String title;
    private final String groupId;
    private final String artifactPrefix;
    private final String adapter;
    private final String loopTemplate;
    private final String yamlTemplate;
    private final String baseUrl;
    private final String keyEnv;

    Sdk(String title, String groupId, String artifactPrefix, String adapter, String loopTemplate, String yamlTemplate,
            String baseUrl, String keyEnv) {
        this.title = title;
        this.groupId = groupId;
        this.artifactPrefix = artifactPrefix;
        this.adapter = adapter;
        this.loopTemplate = loopTemplate;
        this.yamlTemplate = yamlTemplate;
        this.baseUrl = baseUrl;
        this.keyEnv = keyEnv;
    }

    /** The SDK's name as its users know it. */
    public String title() {
        return title;
    }

    /** The artifactId of the harness's adapter for this SDK (groupId {@code dev.resilienceharness}). */
    public String adapter() {
        return adapter;
    }

    /** The loop template written for this SDK. */
    String loopTemplate() {
        return loopTemplate;
    }

    /** The {@code resilience.yaml} template written for this SDK's loop. */
    String yamlTemplate() {
        return yamlTemplate;
    }

    /** The provider's API that this SDK's loop sends to when init is given no base URL. */
    String baseUrl() {
        return baseUrl;
    }

    /** The environment variable that holds the provider's key when recording. */
    String keyEnv() {
        return keyEnv;
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
