package dev.resilienceharness.limits;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The limits' headers as {@code serve} sends them under a time factor: the provider's clock runs
 * {@code 1 / timeFactor} as fast as the real one, so every delay the headers state ({@code Retry-After},
 * {@code retry-after-ms}, {@code x-ratelimit-reset-requests}, {@code x-ratelimit-reset-tokens}) is multiplied by
 * the factor to be real time again. Limits, remaining counts and every other header are kept as they are.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class RealTimeHeaders {

    private static final String[] RESETS = {"x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"};

    private RealTimeHeaders() {
    }

    /**
     * {@code headers} with their delays scaled by {@code timeFactor}, in the same order; unchanged for a factor of 1
     * or of 0 and below (the windows then run on the real clock).
     */
    public static Map<String, String> scaled(Map<String, String> headers, double timeFactor) {
        if (timeFactor <= 0 || timeFactor == 1.0) {
            return headers;
        }
        Map<String, String> out = new LinkedHashMap<>(headers);
        String retryMs = headers.get("retry-after-ms");
        if (retryMs != null) {
            long ms = Math.max(1, (long) Math.ceil(Long.parseLong(retryMs) * timeFactor));
            out.put("Retry-After", BigDecimal.valueOf(ms).movePointLeft(3).stripTrailingZeros().toPlainString());
            out.put("retry-after-ms", Long.toString(ms));
        }
        for (String name : RESETS) {
            String reset = headers.get(name);
            if (reset != null) {
                out.put(name, ResetText.of((long) Math.ceil(ResetText.nanos(reset) * timeFactor)));
            }
        }
        return out;
    }
}
