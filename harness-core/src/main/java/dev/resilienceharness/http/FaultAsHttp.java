package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns one fault of a scenario's plan into the HTTP a provider would have sent, in the API's own shape, without any
 * server: the replay proxy writes the {@link FaultAnswer} to a socket, and an in-process SDK adapter hands it to its
 * SDK's HTTP layer. What each fault becomes:
 * <ul>
 *   <li>{@code none}: a 200 with the recorded body, its first token as late as recorded;</li>
 *   <li>{@code quota}: a 429 in the shape's error body, with {@code Retry-After} and {@code retry-after-ms} when the
 *       fault gives a {@code retry_after} (only {@code Retry-After} when that is an HTTP-date);</li>
 *   <li>{@code server_error}: its status, in the shape's error body;</li>
 *   <li>a Messages request made through anthropic-java's Bedrock or Vertex AI backend ({@link AnthropicCloud}) gets
 *       that cloud's error body instead: Bedrock's {@code {"message"}} with {@code x-amzn-ErrorType}, Google's
 *       {@code {"error": {"code", "message", "status"}}};</li>
 *   <li>{@code timeout}: {@link FaultAnswer.Outcome#TIMEOUT}, silence for the timeout given, then a 504;</li>
 *   <li>{@code slow_first_token}: the recorded 200, its first token {@code elapsed_ms} late;</li>
 *   <li>{@code bad_tool_call}: the recorded 200 with its tool-call JSON cut off (a call is added when there is
 *       none), so it breaks the tool's schema;</li>
 *   <li>{@code crash}: {@link FaultAnswer.Outcome#CRASH}, the connection closed before any byte.</li>
 * </ul>
 * Delays are as declared: scale them with {@link FaultAnswer#scaled} for a time factor. Stateless and thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class FaultAsHttp {

    /** How long a {@code timeout} keeps a client waiting before the 504 when the client's own timeout is unknown. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private FaultAsHttp() {
    }

    /** Whether {@code fault} answers with the recorded body (so the cassette must be found), or replaces it. */
    public static boolean needsRecordedAnswer(Fault fault) {
        return fault instanceof NoFault || fault instanceof BadToolCallFault || fault instanceof SlowFirstTokenFault
                || fault instanceof dev.resilienceharness.fault.RecordedLatencyFault
                || fault instanceof dev.resilienceharness.fault.StreamFault;
    }

    /**
     * The HTTP for {@code fault} hitting a request.
     *
     * @param fault        the plan's entry for this request ({@link NoFault} when the plan has run out)
     * @param shape        the API the request was made to, which decides the error and tool-call shapes
     * @param request      the request body, whose {@code tools} name the tool a broken call is added for
     * @param recorded     the recorded answer body; may be {@code null} when {@link #needsRecordedAnswer} is false
     * @param firstTokenMs the recorded first-token latency, 0 when none was recorded
     * @param timeout      how long a {@code timeout} keeps the client waiting: the client's own timeout where known,
     *                     else {@link #DEFAULT_TIMEOUT}
     * @throws IllegalArgumentException when the fault needs the recorded answer and it is {@code null}
     */
    public static FaultAnswer answer(Fault fault, ApiShape shape, JsonNode request, JsonNode recorded,
            long firstTokenMs, Duration timeout) {
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(shape, "shape");
        if (needsRecordedAnswer(fault) && recorded == null) {
            throw new IllegalArgumentException(fault.kind() + " answers with the recorded body, and there is none");
        }
        Duration recordedDelay = Duration.ofMillis(Math.max(0, firstTokenMs));
        if (fault instanceof SlowFirstTokenFault s) {
            return FaultAnswer.ok(recorded, Duration.ofMillis(s.elapsedMs()));
        }
        if (fault instanceof BadToolCallFault) {
            return FaultAnswer.ok(BrokenToolCalls.of(shape, recorded, request), recordedDelay);
        }
        // Anthropic's models on Bedrock and Vertex AI answer errors in the cloud's own body, which anthropic-java
        // reads into the exception's message, type() and apiMessage().
        AnthropicCloud cloud = shape == ApiShape.MESSAGES ? AnthropicCloud.of(request) : null;
        if (fault instanceof QuotaFault q) {
            return FaultAnswer.error(429, errorHeaders(shape, cloud, 429, quotaHeaders(q.retryAfter())),
                    errorBody(shape, cloud, 429, "rate_limit_exceeded", "injected quota fault: rate limit reached"
                            + (q.retryAfter() == null ? "" : "; retry after " + q.retryAfter())));
        }
        if (fault instanceof ServerErrorFault s) {
            return FaultAnswer.error(s.status(), errorHeaders(shape, cloud, s.status(), Map.of()),
                    errorBody(shape, cloud, s.status(), "server_error", "injected server_error fault"));
        }
        if (fault instanceof TimeoutFault) {
            return FaultAnswer.timeout(Objects.requireNonNull(timeout, "timeout"), errorBody(shape, cloud, 504,
                    "timeout", "injected timeout fault: the provider did not answer in time"));
        }
        if (fault instanceof CrashFault) {
            return FaultAnswer.crash();
        }
        return FaultAnswer.ok(recorded, recordedDelay); // none
    }

    private static Map<String, String> errorHeaders(ApiShape shape, AnthropicCloud cloud, int status,
            Map<String, String> headers) {
        return cloud != null ? cloud.errorHeaders(status, headers) : shape.errorHeaders(status, headers);
    }

    private static ObjectNode errorBody(ApiShape shape, AnthropicCloud cloud, int status, String code,
            String message) {
        return cloud != null ? cloud.errorBody(status, message) : shape.errorBody(status, code, message, null);
    }

    /**
     * {@code Retry-After} as the fault states it and, when it is a number of seconds, {@code retry-after-ms} (which
     * the OpenAI and Anthropic SDKs read first) in milliseconds.
     */
    static Map<String, String> quotaHeaders(String retryAfter) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (retryAfter == null) {
            return headers;
        }
        headers.put("Retry-After", retryAfter);
        try {
            BigDecimal seconds = new BigDecimal(retryAfter.strip());
            if (seconds.signum() >= 0) {
                headers.put("retry-after-ms", seconds.movePointRight(3).stripTrailingZeros().toPlainString());
            }
        } catch (NumberFormatException e) {
            // An HTTP-date: only Retry-After carries it.
        }
        return headers;
    }

    /** The {@code created} a replayed answer gets when recording stripped it: the virtual clock's start. */
    public static final long REPLAY_CREATED = 1_767_225_600L;

    private static final tools.jackson.databind.node.JsonNodeFactory NODES =
            tools.jackson.databind.node.JsonNodeFactory.instance;

    /**
     * A recorded answer with the identifiers stripping removed put back, so that strict clients accept it: a chat
     * completion's {@code id}, {@code object} and {@code created}, a response's {@code id}, {@code object} and
     * {@code created_at}, a message's {@code id}.
     */
    public static JsonNode answerable(ApiShape shape, JsonNode body, String fingerprint) {
        if (!(body instanceof ObjectNode o)) {
            return body;
        }
        return switch (shape) {
            case CHAT_COMPLETIONS -> !o.has("choices") ? body
                    : withDefaults(o, "chatcmpl-" + fingerprint, "object", "chat.completion", "created");
            case RESPONSES -> !o.has("output") ? body
                    : withDefaults(o, "resp_" + fingerprint, "object", "response", "created_at");
            case MESSAGES -> !o.has("content") ? body : withDefaults(o, "msg_" + fingerprint, "type", "message", null);
            case BEDROCK -> body; // Converse answers carry no identifier
            case GEMINI -> body; // no identifier is required: responseId and modelVersion are optional
        };
    }

    private static JsonNode withDefaults(ObjectNode o, String id, String kindKey, String kind, String createdKey) {
        if (o.has("id") && o.has(kindKey) && (createdKey == null || o.has(createdKey))) {
            return o;
        }
        ObjectNode out = NODES.objectNode();
        out.put("id", o.path("id").asString(id));
        out.set(kindKey, o.has(kindKey) ? o.get(kindKey) : NODES.stringNode(kind));
        if (createdKey != null) {
            out.set(createdKey, o.has(createdKey) ? o.get(createdKey) : NODES.numberNode(REPLAY_CREATED));
        }
        o.properties().forEach(e -> out.set(e.getKey(), e.getValue()));
        return out;
    }
}
