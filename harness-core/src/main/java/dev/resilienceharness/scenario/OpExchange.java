package dev.resilienceharness.scenario;

import java.nio.file.Path;
import tools.jackson.databind.node.ObjectNode;

/**
 * An op of a prepared rehearsal: the request it sends and where its cassette is. The recorded answer is read when a
 * run needs it ({@link RecordedAnswers}).
 *
 * @param op          the op
 * @param request     the request the op sends, never changed
 * @param fingerprint the fingerprint of the request in the op's cassette
 * @param file        the op's cassette
 */
record OpExchange(String op, ObjectNode request, String fingerprint, Path file) {
}
