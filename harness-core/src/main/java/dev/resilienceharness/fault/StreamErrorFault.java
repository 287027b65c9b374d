package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * {@code {stream_error: {after_events: n}}}: after the stream's first {@code n} events the provider sends an error
 * event in the API's own shape and ends the stream; {@code {stream_error: {after_events: n, error: api_error}}}
 * names which of the provider's in-stream errors it is.
 *
 * @param afterEvents how many events arrive before the error event
 * @param error       which error event the provider sends, or {@code null} for the API's usual one
 */
@API(status = INTERNAL, since = "0.1.0")
public record StreamErrorFault(int afterEvents, Event error) implements StreamFault {

    /** The provider's in-stream errors, as written after {@code error:}. */
    @API(status = INTERNAL, since = "0.1.0")
    public enum Event {
        /** Anthropic's {@code overloaded_error} in an {@code event: error}: the API's usual in-stream error. */
        OVERLOADED_ERROR("overloaded_error"),
        /** Anthropic's {@code api_error} in an {@code event: error}: an internal error after the stream began. */
        API_ERROR("api_error"),
        /** OpenAI Responses' {@code response.failed}: the response ends with status {@code failed} and its error. */
        RESPONSE_FAILED("response.failed"),
        /** Gemini's error chunk with code 429 and status {@code RESOURCE_EXHAUSTED}: the quota ran out mid-stream. */
        RESOURCE_EXHAUSTED("RESOURCE_EXHAUSTED"),
        /** Gemini's error chunk with code 500 and status {@code INTERNAL}: an internal error after the stream began. */
        INTERNAL("INTERNAL"),
        /** Gemini's error chunk with code 503 and status {@code UNAVAILABLE}: the API's usual in-stream error. */
        UNAVAILABLE("UNAVAILABLE"),
        /** Bedrock ConverseStream's {@code throttlingException}: the stream ends throttled after its 200. */
        THROTTLING_EXCEPTION("throttlingException"),
        /**
         * Bedrock ConverseStream's {@code modelStreamErrorException}: the model failed mid-stream; the API's usual
         * in-stream error on Bedrock.
         */
        MODEL_STREAM_ERROR_EXCEPTION("modelStreamErrorException");

        private final String yamlName;

        Event(String yamlName) {
            this.yamlName = yamlName;
        }

        /** How it is written in {@code resilience.yaml}. */
        public String yamlName() {
            return yamlName;
        }

        /** Every name, in the order the docs list them. */
        public static List<String> yamlNames() {
            return java.util.Arrays.stream(values()).map(Event::yamlName).toList();
        }

        /** The event written {@code name}. */
        public static Event of(String name) {
            for (Event e : values()) {
                if (e.yamlName.equals(name)) {
                    return e;
                }
            }
            throw new IllegalArgumentException("error is one of " + String.join(", ", yamlNames()) + ", not "
                    + name);
        }
    }

    public StreamErrorFault {
        StreamFault.notNegative("after_events", afterEvents);
    }

    /** The API's usual error event after {@code afterEvents} events. */
    public StreamErrorFault(int afterEvents) {
        this(afterEvents, null);
    }

    @Override
    public String kind() {
        return "stream_error";
    }

    @Override
    public Object toYaml() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("after_events", afterEvents);
        if (error != null) {
            settings.put("error", error.yamlName());
        }
        return Map.of(kind(), settings);
    }
}
