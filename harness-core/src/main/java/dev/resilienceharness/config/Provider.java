package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.net.URI;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Where the record goal sends requests.
 *
 * @param baseUrl   an OpenAI-compatible base URL; requests go to {@code POST {baseUrl}/chat/completions}
 * @param apiKeyEnv the environment variable holding the key, which is never written anywhere
 */
@API(status = INTERNAL, since = "0.1.0")
public record Provider(URI baseUrl, String apiKeyEnv) {

    public Provider {
        Objects.requireNonNull(baseUrl, "baseUrl");
    }
}
