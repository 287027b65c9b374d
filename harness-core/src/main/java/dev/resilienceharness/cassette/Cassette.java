package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.Reply;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One recorded exchange (docs cassettes.md): the request exactly as sent, the response, and optional timing.
 *
 * @param file        the file it was read from, or will be written to
 * @param fingerprint the request's fingerprint (after volatile request paths are removed)
 * @param request     the request
 * @param response    the response body
 * @param timing      the recorded timing, or {@code null}
 * @param op          the op it was recorded for, when it was recorded through an SDK adapter inside an op scope
 *                    (the cassette's optional top-level {@code "op"} key, which readers of the Python format
 *                    ignore); else {@code null}
 * @param recordedAt  when it was recorded (the optional top-level {@code "recorded_at"} key, which readers of the
 *                    Python format ignore), or {@code null}
 * @param stream      every event of a streamed answer with its arrival offset (the optional top-level
 *                    {@code "stream"} key, which readers of the Python format ignore: {@code response} is the
 *                    assembled message), or {@code null} for an answer that was not streamed
 */
@API(status = INTERNAL, since = "0.1.0")
public record Cassette(Path file, String fingerprint, ObjectNode request, JsonNode response, Timing timing,
        String op, java.time.Instant recordedAt, CassetteStream stream) {

    public Cassette {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
    }

    /** A cassette of an answer that was not streamed, with its recording time or {@code null}. */
    public Cassette(Path file, String fingerprint, ObjectNode request, JsonNode response, Timing timing, String op,
            java.time.Instant recordedAt) {
        this(file, fingerprint, request, response, timing, op, recordedAt, null);
    }

    /** A cassette without a recording time, of a streamed answer or not ({@code stream} {@code null}). */
    public Cassette(Path file, String fingerprint, ObjectNode request, JsonNode response, Timing timing, String op,
            CassetteStream stream) {
        this(file, fingerprint, request, response, timing, op, null, stream);
    }

    /** A cassette without a recording time of an answer that was not streamed. */
    public Cassette(Path file, String fingerprint, ObjectNode request, JsonNode response, Timing timing, String op) {
        this(file, fingerprint, request, response, timing, op, null, null);
    }

    /** A cassette recorded without an op label. */
    public Cassette(Path file, String fingerprint, ObjectNode request, JsonNode response, Timing timing) {
        this(file, fingerprint, request, response, timing, null);
    }

    /** The recorded answer as the transport returns it, first-token latency included when recorded. */
    public Reply reply() {
        return new Reply(response, timing == null || timing.firstTokenMs() == null
                ? OptionalLong.empty() : OptionalLong.of(timing.firstTokenMs()));
    }
}
