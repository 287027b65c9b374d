package dev.resilienceharness.scenario;

import java.nio.file.Path;

/**
 * An op's recorded exchange, prepared once for every run: where its cassette is and whether the recorded tool calls
 * break their schema (which makes every answered call for the op a schema failure). The answer itself is read when
 * a run needs it ({@link RecordedReplies}).
 *
 * @param op            the op
 * @param fingerprint   the fingerprint of the request in the op's cassette
 * @param file          the op's cassette
 * @param schemaProblem what is wrong with the recorded tool calls, or {@code null}
 */
record OpExchange(String op, String fingerprint, Path file, String schemaProblem) {
}
