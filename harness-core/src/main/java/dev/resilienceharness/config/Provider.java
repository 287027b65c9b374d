package dev.resilienceharness.config;

import java.net.URI;
import java.util.Objects;

/**
 * Where the record goal sends requests.
 *
 * @param baseUrl   an OpenAI-compatible base URL; requests go to {@code POST {baseUrl}/chat/completions}
 * @param apiKeyEnv the environment variable holding the key, which is never written anywhere
 */
public record Provider(URI baseUrl, String apiKeyEnv) {

    public Provider {
        Objects.requireNonNull(baseUrl, "baseUrl");
    }
}
