package dev.resilienceharness.proxy;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.RecordedLatencyFault;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.FaultAsHttp;
import dev.resilienceharness.http.FaultAnswer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The proxy's replay answers: finds a request's cassette by fingerprint and applies the fault that hits it, through
 * {@link FaultAsHttp}. A miss is a 404 naming the fingerprint, the nearest recorded request and how to record; an
 * unusable cassette a 500. A fault that replaces the answer (quota, server_error, timeout, crash) needs no cassette.
 */
final class CassetteAnswers {

    /** The virtual clock's epoch (2026-01-01T00:00:00Z): the {@code created} of a replayed answer that has none. */
    static final long REPLAY_CREATED = FaultAsHttp.REPLAY_CREATED;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final CassetteStore store;

    CassetteAnswers(CassetteStore store) {
        this.store = store;
    }

    /**
     * The answer to {@code request} under {@code fault}.
     *
     * @param timeout how long a {@code timeout} fault keeps the client waiting, before any time factor
     */
    FaultAnswer answer(Fault fault, ApiShape shape, ObjectNode request, Duration timeout) {
        return answer(fault, shape, request, timeout, 0);
    }

    /**
     * The answer to {@code request} under {@code fault}, the {@code call}-th request of its run: a
     * {@code {latency: recorded}} draws its delay from the cassette's timing samples as a scenario run does, seeded by
     * the cassette's fingerprint and {@code call}.
     *
     * @param timeout how long a {@code timeout} fault keeps the client waiting, before any time factor
     */
    FaultAnswer answer(Fault fault, ApiShape shape, ObjectNode request, Duration timeout, int call) {
        if (!FaultAsHttp.needsRecordedAnswer(fault)) {
            return FaultAsHttp.answer(fault, shape, request, null, 0, timeout);
        }
        Cassette cassette;
        try {
            cassette = find(request);
        } catch (CassetteException e) {
            return FaultAnswer.error(500, Map.of(), shape.errorBody(500, "cassette_unusable",
                    e.getMessage() + ". Fix or re-record it", store.fingerprint(request)));
        }
        if (cassette == null) {
            String fp = store.fingerprint(request);
            return FaultAnswer.error(404, Map.of(), shape.errorBody(404, "cassette_miss",
                    ProxyMessages.cassetteMiss(fp, store.folder().toString(), nearest(request)), fp));
        }
        long firstToken = cassette.timing() == null || cassette.timing().firstTokenMs() == null ? 0
                : cassette.timing().firstTokenMs();
        Fault applied = fault instanceof RecordedLatencyFault l ? l.draw(cassette.timing() == null ? List.of()
                : cassette.timing().samples(), cassette.fingerprint(), call) : fault;
        return FaultAsHttp.answer(applied, shape, request, FaultAsHttp.answerable(shape, cassette.response(),
                cassette.fingerprint()), firstToken, timeout);
    }

    /**
     * The events a streaming request is answered with under {@code fault}: the cassette's recorded events at their
     * offsets, or those its answer stands for, with the fault applied; {@code null} when no cassette answers it.
     */
    dev.resilienceharness.http.StreamReplay stream(Fault fault, ApiShape shape, ObjectNode request) {
        Cassette cassette;
        try {
            cassette = find(request);
        } catch (CassetteException e) {
            return null;
        }
        if (cassette == null) {
            return null;
        }
        long firstToken = cassette.timing() == null || cassette.timing().firstTokenMs() == null ? 0
                : cassette.timing().firstTokenMs();
        return dev.resilienceharness.http.StreamReplay.of(fault, shape, cassette.stream(),
                FaultAsHttp.answerable(shape, cassette.response(), cassette.fingerprint()), firstToken, request,
                cassette.fingerprint());
    }

    /**
     * The cassette answering {@code request}: by its fingerprint, as a streaming request recorded without streaming,
     * and only then as the same requests with their tools in another order (docs cassettes.md, "Tool order").
     */
    private Cassette find(ObjectNode request) throws CassetteException {
        Cassette c = store.get(store.fingerprint(request));
        if (c != null) {
            return c;
        }
        List<ObjectNode> asked = new ArrayList<>(3);
        asked.add(request);
        if (ApiShape.streams(request)) {
            // A streaming client may replay a cassette recorded without streaming, with or without "stream": false.
            ObjectNode plain = request.deepCopy();
            plain.remove(List.of("stream", "stream_options"));
            c = store.get(store.fingerprint(plain));
            if (c != null) {
                return c;
            }
            ObjectNode notStreamed = plain.deepCopy().put("stream", false);
            c = store.get(store.fingerprint(notStreamed));
            if (c != null) {
                return c;
            }
            asked.add(plain);
            asked.add(notStreamed);
        }
        for (ObjectNode each : asked) {
            c = store.inAnyToolOrder(each);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    private String nearest(ObjectNode request) {
        try {
            store.replay("proxy request", request);
            return null;
        } catch (CassetteMiss m) {
            return m.nearestFile() == null ? null : "the nearest recorded request is " + m.nearestFile()
                    + ", which differs at " + String.join(", ", m.differingPaths());
        } catch (CassetteException e) {
            return null;
        }
    }

}
