package dev.resilienceharness.fault;

import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import java.util.Map;

/**
 * {@code quota} or {@code {quota: {retry_after: "2"}}}: the provider rejects the call for quota (HTTP 429).
 *
 * @param retryAfter the {@code Retry-After} header text, or {@code null} for a rejection without the header
 */
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
    public Reply strike(String op, Reply recorded) throws QuotaExhausted {
        throw new QuotaExhausted(retryAfter);
    }
}
