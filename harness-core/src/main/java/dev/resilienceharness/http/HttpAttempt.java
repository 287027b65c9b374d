package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One HTTP attempt an SDK makes, as its adapter hands it to the scenario run: every attempt, the SDK's own retries
 * included, becomes one call in the run's trace.
 *
 * @param sdk      the SDK that sent it, with its version (for example {@code openai-java 4.105.0})
 * @param method   the HTTP method
 * @param path     the API path below the SDK's base URL, without a leading slash or {@code v1/}:
 *                 {@code chat/completions}, {@code responses}, {@code messages}
 * @param headers  the request headers as the SDK set them; {@link #header} looks a name up ignoring case
 * @param body     the request body, JSON
 * @param timeout  how long the SDK waits for an answer before it gives up, when the adapter knows it
 * @param sdkRetry 0 for the SDK's first attempt at a request the loop made; n for the SDK's own n-th retry of it
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record HttpAttempt(String sdk, String method, String path, Map<String, List<String>> headers, byte[] body,
        Duration timeout, int sdkRetry) {

    public HttpAttempt {
        Objects.requireNonNull(sdk, "sdk");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(body, "body");
        path = normalise(path);
        headers = headers == null ? Map.of() : Collections.unmodifiableMap(headers);
        if (sdkRetry < 0) {
            throw new IllegalArgumentException("sdkRetry must not be negative, was " + sdkRetry);
        }
    }

    /** The first value of header {@code name}, or {@code null}. */
    public String header(String name) {
        return first(headers, name);
    }

    /** The first value of header {@code name} in {@code headers}, names compared ignoring case; else {@code null}. */
    static String first(Map<String, List<String>> headers, String name) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
                return e.getValue().get(0);
            }
        }
        return null;
    }

    /** {@code /v1/chat/completions}, {@code v1/chat/completions} and {@code chat/completions} are one path. */
    static String normalise(String path) {
        String p = path;
        int query = p.indexOf('?');
        if (query >= 0) {
            p = p.substring(0, query);
        }
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        if (p.startsWith("v1/")) {
            p = p.substring(3);
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    /**
     * The SDK retry number an SDK of the Stainless family (openai-java, anthropic-java) writes on every attempt in
     * {@code X-Stainless-Retry-Count}; 0 when the header is absent or not a number.
     */
    public static int stainlessRetryCount(Map<String, List<String>> headers) {
        String count = first(headers, "X-Stainless-Retry-Count");
        if (count == null) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(count.trim()));
        } catch (NumberFormatException notANumber) {
            return 0;
        }
    }
}
