package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.QuotaExhausted;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * {@code quota} or {@code {quota: {retry_after: "2"}}}: the provider rejects the call for quota (HTTP 429).
 *
 * @param retryAfter the {@code Retry-After} header text, or {@code null} for a rejection without the header
 */
@API(status = INTERNAL, since = "0.1.0")
public record QuotaFault(String retryAfter) implements Fault {

    @Override
    public String kind() {
        return "quota";
    }

    @Override
    public Object toYaml() {
        return retryAfter == null ? kind() : Map.of(kind(), Map.of("retry_after", retryAfter));
    }

    @Override
    public QuotaExhausted failure(String op) {
        return new QuotaExhausted(retryAfter);
    }
}
