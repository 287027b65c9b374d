package dev.resilienceharness.clients.bedrock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each API call of a client began on the run's virtual clock, so that its later attempts (the SDK's retries)
 * run under what is left of its {@code apiCallTimeout}. A call is told by the {@code amz-sdk-invocation-id} header the
 * SDK stamps on every attempt of it, the same on each.
 */
final class CallStarts {

    private final Clock clock;
    private final Map<String, Instant> starts = new ConcurrentHashMap<>();

    CallStarts(Clock clock) {
        this.clock = clock;
    }

    /** How long ago, on the run's clock, the call this attempt belongs to began: zero for its first attempt. */
    Duration elapsed(Map<String, List<String>> headers) {
        Instant now = clock.instant();
        String id = null;
        for (Map.Entry<String, List<String>> h : headers.entrySet()) {
            if (h.getKey().equalsIgnoreCase("amz-sdk-invocation-id") && !h.getValue().isEmpty()) {
                id = h.getValue().get(0);
            }
        }
        if (id == null || RunHttpClient.retry(headers) == 0) {
            if (id != null) {
                starts.put(id, now);
            }
            return Duration.ZERO;
        }
        Instant start = starts.putIfAbsent(id, now);
        return start == null ? Duration.ZERO : Duration.between(start, now);
    }
}
