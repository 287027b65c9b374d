package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.json.JsonDiff;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.transport.RepairRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a rehearsal's calls find their op and its cassette: a {@code Transport} payload by the op's declared request,
 * an SDK's HTTP request by the op scope it was made in and the fingerprint of its body. Thread-safe; shared by every
 * run of a rehearsal.
 */
final class Lookup {

    private final Map<ObjectNode, OpExchange> byTemplate;
    private final Map<ObjectNode, OpExchange> byRequest;
    private final Map<String, OpExchange> byFingerprint;
    private final Map<String, OpExchange> recorded = new ConcurrentHashMap<>();
    private final Map<String, OpExchange> repairs = new ConcurrentHashMap<>();
    private final RecordedAnswers answers;
    private final VolatilePaths volatilePaths;
    private final CassetteStore store;
    private final CassetteReader reader;
    private final String missAdvice;

    /**
     * @param missAdvice what a miss of an SDK request says to do, or {@code null} for the usual advice
     */
    Lookup(List<OpExchange> exchanges, Map<String, ObjectNode> templates, RecordedAnswers answers,
            VolatilePaths volatilePaths, Path cassettes, String missAdvice) {
        this.byRequest = new java.util.HashMap<>();
        this.byFingerprint = new java.util.HashMap<>();
        for (OpExchange e : exchanges) {
            byRequest.put(e.request(), e);
            byFingerprint.put(e.fingerprint(), e);
        }
        // Each op's request node is handed to the built-in loop as it is; a call sending it is known by identity.
        this.byTemplate = new IdentityHashMap<>();
        templates.values().forEach(t -> byTemplate.put(t, byRequest.get(t)));
        this.answers = answers;
        this.volatilePaths = volatilePaths;
        this.store = CassetteStore.replaying(cassettes, volatilePaths);
        this.reader = new CassetteReader(cassettes, volatilePaths);
        this.missAdvice = missAdvice;
    }

    /** Whether an answer recorded for {@code op} streams: its request asks for a stream, or its cassette keeps one. */
    boolean streams(String op) {
        for (OpExchange e : byFingerprint.values()) {
            if (e.op().equals(op) && (dev.resilienceharness.http.ApiShape.streams(e.request())
                    || answers.answer(e).stream() != null)) {
                return true;
            }
        }
        return false;
    }

    RecordedAnswers answers() {
        return answers;
    }

    VolatilePaths volatilePaths() {
        return volatilePaths;
    }

    String fingerprint(ObjectNode request) {
        return CassetteReader.fingerprint(request, volatilePaths);
    }

    /**
     * The exchange a {@code Transport} payload is for, or {@code null} when no cassette answers it.
     *
     * @throws UnlistedOp when the payload is for an op the scenario does not list and no cassette answers it
     */
    OpExchange forPayload(ObjectNode payload, int repair, Set<String> scenarioOps, String repairInstruction) {
        ObjectNode request = payload;
        boolean isRepair = payload.has(RepairRequest.MARKER);
        if (isRepair) {
            request = RepairRequest.sent(payload);
        } else {
            OpExchange known = byTemplate.get(payload);
            if (known != null) {
                return known;
            }
        }
        OpExchange exchange = byRequest.get(request);
        if (exchange != null) {
            return exchange;
        }
        String fp = fingerprint(request);
        exchange = byFingerprint.get(fp);
        if (exchange == null && isRepair) {
            exchange = repairExchange(request, fp, repairInstruction);
        }
        if (exchange == null && request.path("op").isString()
                && !scenarioOps.contains(request.get("op").asString())) {
            throw new UnlistedOp(RunMessages.notListed(request.get("op").asString(), scenarioOps));
        }
        return exchange;
    }

    /**
     * The exchange answering a repair request that carries the policy's instruction: the repair's own cassette when
     * one was recorded, else the op's; {@code null} when the request is no repair of a known op.
     */
    private OpExchange repairExchange(ObjectNode sent, String fp, String instruction) {
        ObjectNode original = RepairRequest.original(sent, instruction);
        OpExchange known = byRequest.get(original);
        OpExchange op = known != null ? known : byFingerprint.get(fingerprint(original));
        if (op == null) {
            return null;
        }
        return repairs.computeIfAbsent(fp, k -> {
            Path own = op.file().resolveSibling(k + ".json");
            return Files.isRegularFile(own) ? new OpExchange(op.op(), sent, k, own) : op;
        });
    }

    /**
     * The exchange an SDK's request is for: a declared op's request, or a cassette recorded under the request's
     * fingerprint; {@code null} when no cassette answers it.
     *
     * @param scoped the op of the scope the request was made in, or {@code null}; it wins over a label
     */
    OpExchange forRequest(ObjectNode body, int repair, String scoped) {
        ObjectNode request = body;
        if (repair > 0) {
            request = body.deepCopy();
            request.remove("repair");
        }
        String fp = fingerprint(request);
        if (scoped != null) {
            OpExchange known = recorded.get(fp + "/" + scoped);
            if (known != null) {
                return known;
            }
        }
        OpExchange declared = byFingerprint.get(fp);
        if (declared != null) {
            return scoped == null || scoped.equals(declared.op()) ? declared
                    : recorded.computeIfAbsent(fp + "/" + scoped, k -> new OpExchange(scoped, declared.request(), fp,
                            declared.file()));
        }
        Path file = store.fileFor(fp);
        if (!Files.exists(file)) {
            return null;
        }
        String op = scoped;
        if (op == null) {
            op = label(file);
            if (op == null) {
                return null;
            }
        }
        String key = fp + "/" + op;
        OpExchange known = recorded.get(key);
        if (known != null) {
            return known;
        }
        OpExchange made = new OpExchange(op, request, fp, file);
        OpExchange raced = recorded.putIfAbsent(key, made);
        return raced != null ? raced : made;
    }

    /** Makes a just-recorded cassette known, so that the rest of the run is answered from it. */
    OpExchange recorded(String op, ObjectNode request, Cassette cassette) {
        OpExchange made = new OpExchange(op, request, cassette.fingerprint(), cassette.file());
        answers.offer(made, answers.of(made, cassette));
        recorded.put(cassette.fingerprint() + "/" + op, made);
        return made;
    }

    /** The op a cassette was recorded for, or {@code null} when it carries no label or cannot be read. */
    private String label(Path file) {
        try {
            return reader.read(file).op();
        } catch (CassetteException e) {
            throw new RecordedAnswers.Unreadable(file.getFileName().toString(), e);
        }
    }

    /** The miss of an SDK request for {@code op}, naming the nearest recorded request and how to record it. */
    CassetteMiss miss(String op, ObjectNode request) {
        CassetteMiss m = store.miss(op, fingerprint(request), request);
        return missAdvice == null ? m : m.advising(missAdvice);
    }

    /** The miss of a {@code Transport} payload, naming the nearest declared request. */
    CassetteMiss nearestDeclared(String op, ObjectNode request) {
        OpExchange nearest = null;
        List<String> nearestPaths = List.of();
        for (Map.Entry<ObjectNode, OpExchange> candidate : byRequest.entrySet()) {
            List<String> diff = JsonDiff.paths(candidate.getKey(), request);
            if (nearest == null || diff.size() < nearestPaths.size()) {
                nearest = candidate.getValue();
                nearestPaths = diff;
            }
        }
        return new CassetteMiss(op, fingerprint(request), nearest == null || nearest.file() == null ? null
                : nearest.file().getFileName().toString(), nearestPaths);
    }
}
