package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.resilienceharness.cassette.StreamEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/** What a scenario run answers an SDK's HTTP attempt with: a response, or nothing before the SDK's timeout. */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface HttpAnswer {

    /**
     * An HTTP response.
     *
     * @param index     the call's index in the run's trace
     * @param status    the status code
     * @param headers   the response headers; {@link #header} looks a name up ignoring case
     * @param body      the body
     * @param firstByte how long after the request the body starts to arrive (a slow first token); the adapter reads
     *                  the body through {@link HttpEndpoint#body}, which moves the virtual clock on by it
     * @param events    the server-sent events of a streamed answer with their offsets since the request (what a
     *                  live provider sent, or what a run replays: the body is then their wire form), else
     *                  {@code null}
     */
    record Response(int index, int status, Map<String, List<String>> headers, byte[] body, Duration firstByte,
            List<StreamEvent> events) implements HttpAnswer {
        public Response {
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(firstByte, "firstByte");
            headers = Collections.unmodifiableMap(headers);
            events = events == null ? null : List.copyOf(events);
        }

        /** A response that is not a stream. */
        public Response(int index, int status, Map<String, List<String>> headers, byte[] body, Duration firstByte) {
            this(index, status, headers, body, firstByte, null);
        }

        /** The first value of header {@code name}, or {@code null}. */
        public String header(String name) {
            return HttpAttempt.first(headers, name);
        }

        /** The body as text. */
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * No answer came before the SDK's timeout: the adapter throws what its SDK throws on an I/O timeout (the virtual
     * clock has already moved on by {@code after}).
     */
    record TimedOut(Duration after) implements HttpAnswer {
        public TimedOut {
            Objects.requireNonNull(after, "after");
        }
    }
}
