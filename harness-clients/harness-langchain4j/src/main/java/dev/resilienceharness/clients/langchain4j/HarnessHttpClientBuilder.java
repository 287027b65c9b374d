package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.resilienceharness.http.HttpEndpoint;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The {@link HttpClientBuilder} a langchain4j model is given ({@code httpClientBuilder(...)}): the model sets its
 * timeouts on it (its {@code timeout(...)}, else connect 15 s and read 60 s) and builds a {@link HarnessHttpClient}
 * bound to one scenario run. The read timeout is the one a timeout fault costs on the virtual clock and the one a
 * late first token is measured against; the connect timeout is kept only because the SPI asks for it (no connection
 * is ever made).
 */
public final class HarnessHttpClientBuilder implements HttpClientBuilder {

    private final HttpEndpoint endpoint;
    private final SdkRetries retries;
    private final Supplier<Duration> waited;
    private Duration connectTimeout;
    private Duration readTimeout;

    HarnessHttpClientBuilder(HttpEndpoint endpoint, SdkRetries retries, Supplier<Duration> waited) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.retries = Objects.requireNonNull(retries, "retries");
        this.waited = Objects.requireNonNull(waited, "waited");
    }

    @Override
    public Duration connectTimeout() {
        return connectTimeout;
    }

    @Override
    public HarnessHttpClientBuilder connectTimeout(Duration timeout) {
        this.connectTimeout = timeout;
        return this;
    }

    @Override
    public Duration readTimeout() {
        return readTimeout;
    }

    @Override
    public HarnessHttpClientBuilder readTimeout(Duration timeout) {
        this.readTimeout = timeout;
        return this;
    }

    @Override
    public HttpClient build() {
        return new HarnessHttpClient(endpoint, readTimeout, retries, waited);
    }
}
