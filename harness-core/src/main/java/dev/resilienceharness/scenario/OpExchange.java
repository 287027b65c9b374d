package dev.resilienceharness.scenario;

import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An op of a prepared rehearsal: the request it sends and where its cassette is. The recorded answer is read when a
 * run needs it ({@link RecordedAnswers}).
 *
 * @param op          the op
 * @param request     the request the op sends, never changed
 * @param fingerprint the fingerprint of the request in the op's cassette
 * @param file        the op's cassette
 * @param model       the request's {@code model} when it is a string, else {@code null}: what every call's record
 *                    names, read once here rather than looked up in the request on every call
 */
record OpExchange(String op, ObjectNode request, String fingerprint, Path file, String model) {

    OpExchange(String op, ObjectNode request, String fingerprint, Path file) {
        this(op, request, fingerprint, file, modelOf(request));
    }

    /** The request's {@code model} when it is a string, else {@code null}. */
    static String modelOf(JsonNode request) {
        JsonNode model = request == null ? null : request.get("model");
        return model != null && model.isString() ? model.asString() : null;
    }
}
