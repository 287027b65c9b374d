package dev.resilienceharness.scenario;

import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.live.BrokenToolCalls;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.RetryAfter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** A fault as the HTTP an SDK sees in-process: status, headers and body, in the error shape of the API called. */
final class HttpFaults {

    /** How the attempt ends for the run's trace. */
    enum Result {
        OK, QUOTA, TRANSIENT, SCHEMA, TIMED_OUT, CRASH
    }

    /**
     * The HTTP answer to one attempt.
     *
     * @param retryAfter the {@code Retry-After} text of a 429, else {@code null}
     */
    record Answer(Result result, int status, Map<String, List<String>> headers, byte[] body, Duration firstByte,
            String retryAfter) {
    }

    private static final byte[] NONE = new byte[0];

    private HttpFaults() {
    }

    /** {@code fault} striking a call whose recorded answer is {@code recorded}, for a request to {@code path}. */
    static Answer answer(Fault fault, Reply recorded, ObjectNode request, String path) {
        Duration recordedFirst = recorded.firstTokenMs().isPresent()
                ? Duration.ofMillis(recorded.firstTokenMs().getAsLong()) : Duration.ZERO;
        if (fault instanceof NoFault) {
            return ok(Result.OK, recorded, recordedFirst);
        }
        if (fault instanceof SlowFirstTokenFault slow) {
            return ok(Result.OK, recorded, Duration.ofMillis(slow.elapsedMs()));
        }
        if (fault instanceof BadToolCallFault) {
            return new Answer(Result.SCHEMA, 200, json(), bytes(BrokenToolCalls.of(recorded.body(), request)),
                    recordedFirst, null);
        }
        if (fault instanceof QuotaFault quota) {
            Map<String, List<String>> headers = json();
            String retryAfter = quota.retryAfter();
            if (retryAfter != null) {
                headers.put("retry-after", List.of(retryAfter));
                String ms = millis(retryAfter);
                if (ms != null) {
                    headers.put("retry-after-ms", List.of(ms));
                }
            }
            return new Answer(Result.QUOTA, 429, headers, error(path, 429), Duration.ZERO, retryAfter);
        }
        if (fault instanceof ServerErrorFault server) {
            return new Answer(Result.TRANSIENT, server.status(), json(), error(path, server.status()), Duration.ZERO,
                    null);
        }
        if (fault instanceof TimeoutFault) {
            return new Answer(Result.TIMED_OUT, 0, Map.of(), NONE, Duration.ZERO, null);
        }
        if (fault instanceof CrashFault) {
            return new Answer(Result.CRASH, 0, Map.of(), NONE, Duration.ZERO, null);
        }
        throw new AssertionError("unknown fault " + fault);
    }

    private static Answer ok(Result result, Reply recorded, Duration firstByte) {
        return new Answer(result, 200, json(), bytes(recorded.body()), firstByte, null);
    }

    private static Map<String, List<String>> json() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("content-type", List.of("application/json"));
        return headers;
    }

    private static byte[] bytes(tools.jackson.databind.JsonNode body) {
        return Json.compact(body).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code retry-after-ms} for a Retry-After in seconds, so that every SDK reads the same delay; else null. */
    static String millis(String retryAfter) {
        if (RetryAfter.parse(retryAfter, dev.resilienceharness.clock.VirtualClock.EPOCH).isEmpty()) {
            return null;
        }
        try {
            BigDecimal seconds = new BigDecimal(retryAfter.trim());
            return seconds.movePointRight(3).stripTrailingZeros().toPlainString();
        } catch (NumberFormatException httpDate) {
            return null;
        }
    }

    /** The error body of the API at {@code path}: Anthropic's for {@code messages}, OpenAI's otherwise. */
    static byte[] error(String path, int status) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        String message = status == 429 ? "Rate limit reached (injected by the scenario's fault plan)"
                : "The server had an error while processing your request (injected by the scenario's fault plan)";
        if (path.equals("messages")) {
            root.put("type", "error");
            root.putObject("error").put("type", status == 429 ? "rate_limit_error"
                    : status == 529 ? "overloaded_error" : "api_error").put("message", message);
        } else {
            ObjectNode error = root.putObject("error");
            error.put("message", message);
            error.put("type", status == 429 ? "rate_limit_error" : "server_error");
            error.putNull("param");
            error.put("code", status == 429 ? "rate_limit_exceeded" : null);
        }
        return bytes(root);
    }
}
