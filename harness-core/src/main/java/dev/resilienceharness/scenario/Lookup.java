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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a rehearsal's calls find their op and its cassette: a {@code Transport} payload by the op's declared request,
 * an SDK's HTTP request by the op scope it was made in and the fingerprint of its body. Thread-safe; shared by every
 * run of a rehearsal.
 */
final class Lookup {

    private final List<OpExchange> exchanges;
    private final Map<ObjectNode, OpExchange> byTemplate;
    /**
     * Made only to name the nearest declared request of a miss: hashing every declared request tree costs a cold check
     * tens of milliseconds. A request equal to a declared one has its fingerprint, so {@link #sameRequest} finds it.
     */
    private volatile Map<ObjectNode, OpExchange> byRequest;
    private final Map<String, OpExchange> byFingerprint;
    /** The exchanges of each fingerprint that more than one op's request has, in order. */
    private final Map<String, List<OpExchange>> sharing;
    private final Map<String, OpExchange> recorded = new ConcurrentHashMap<>();
    private final Map<String, OpExchange> repairs = new ConcurrentHashMap<>();
    /** The repair payloads made for the built-in loop ({@link #repairTemplate}), by op, repair and instruction. */
    private final Map<RepairKey, RepairTemplate> repairTemplates = new ConcurrentHashMap<>();
    /** The same, by the payload node itself, which a call sending it is known by. */
    private final Map<ObjectNode, RepairTemplate> byRepairTemplate =
            java.util.Collections.synchronizedMap(new IdentityHashMap<>());
    private final RecordedAnswers answers;
    private final VolatilePaths volatilePaths;
    private final CassetteStore store;
    private final CassetteReader reader;
    private final String missAdvice;

    /**
     * @param exchanges  each op once
     * @param missAdvice what a miss of an SDK request says to do, or {@code null} for the usual advice
     */
    Lookup(List<OpExchange> exchanges, RecordedAnswers answers, VolatilePaths volatilePaths, Path cassettes,
            String missAdvice) {
        this.exchanges = List.copyOf(exchanges);
        this.byFingerprint = new HashMap<>();
        // Equal requests have one fingerprint: only ops that share one can have equal requests.
        this.sharing = new HashMap<>();
        for (OpExchange e : exchanges) {
            OpExchange before = byFingerprint.put(e.fingerprint(), e);
            if (before != null) {
                sharing.computeIfAbsent(e.fingerprint(), k -> new ArrayList<>(List.of(before))).add(e);
            }
        }
        // Each op's request node is handed to the built-in loop as it is; a call sending it is known by identity, and
        // answered as a request equal to it would be (by the last op with an equal request).
        this.byTemplate = new IdentityHashMap<>();
        for (OpExchange e : exchanges) {
            List<OpExchange> group = sharing.get(e.fingerprint());
            byTemplate.put(e.request(), group == null ? e : lastEqual(group, e.request()));
        }
        this.answers = answers;
        this.volatilePaths = volatilePaths;
        this.store = CassetteStore.replaying(cassettes, volatilePaths);
        this.reader = new CassetteReader(cassettes, volatilePaths);
        this.missAdvice = missAdvice;
    }

    /** How many repair payloads {@link #repairTemplate} keeps at most. */
    static final int REPAIR_TEMPLATES = 4096;

    /**
     * Its own {@code equals} and {@code hashCode}: a record's generated ones are bootstrapped through method handles
     * the first time they run, which a cold JVM (the check's own) pays for with some thirty classes spun at the start
     * of its scenarios, on every thread that meets them there.
     */
    private record RepairKey(String op, int n, String instruction) {

        @Override
        public boolean equals(Object o) {
            return o instanceof RepairKey k && n == k.n && Objects.equals(op, k.op)
                    && Objects.equals(instruction, k.instruction);
        }

        @Override
        public int hashCode() {
            return (Objects.hashCode(op) * 31 + n) * 31 + Objects.hashCode(instruction);
        }
    }

    /** A repair payload made once, and the exchange that answers it once a call has found it. */
    private static final class RepairTemplate {
        final ObjectNode payload;
        final String instruction;
        volatile OpExchange exchange;

        RepairTemplate(ObjectNode payload, String instruction) {
            this.payload = payload;
            this.instruction = instruction;
        }
    }

    /**
     * The payload of {@code op}'s {@code n}-th repair call ({@link RepairRequest#payload} of its template), made once
     * and never changed, like the op's template: a call sending it is known by identity, so the runs after the first
     * neither copy the request again nor fingerprint the copy to find its cassette. At most
     * {@value #REPAIR_TEMPLATES} are kept (a few megabytes of requests); past that they are made afresh from none.
     */
    ObjectNode repairTemplate(String op, ObjectNode template, int n, String instruction) {
        if (repairTemplates.size() >= REPAIR_TEMPLATES) {
            // A payload already handed out is then simply not known by identity: its call takes the longer way.
            repairTemplates.clear();
            byRepairTemplate.clear();
        }
        return repairTemplates.computeIfAbsent(new RepairKey(op, n, instruction), k -> {
            RepairTemplate made = new RepairTemplate(RepairRequest.payload(template, n, instruction), instruction);
            byRepairTemplate.put(made.payload, made);
            return made;
        }).payload;
    }

    private static OpExchange lastEqual(List<OpExchange> group, ObjectNode request) {
        OpExchange last = null;
        for (OpExchange e : group) {
            if (e.request().equals(request)) {
                last = e;
            }
        }
        return last;
    }

    /**
     * The exchange of the last op whose request equals {@code request}, whose fingerprint is {@code fp}; {@code null}
     * when no op's does.
     */
    private OpExchange sameRequest(String fp, ObjectNode request) {
        List<OpExchange> group = sharing.get(fp);
        if (group == null) {
            OpExchange only = byFingerprint.get(fp);
            return only != null && only.request().equals(request) ? only : null;
        }
        return lastEqual(group, request);
    }

    /** Each op's exchange by its request (the last op's, when several declare equal requests). */
    private Map<ObjectNode, OpExchange> byRequest() {
        Map<ObjectNode, OpExchange> made = byRequest;
        if (made == null) {
            synchronized (this) {
                made = byRequest;
                if (made == null) {
                    made = new HashMap<>();
                    for (OpExchange e : exchanges) {
                        made.put(e.request(), e);
                    }
                    byRequest = made;
                }
            }
        }
        return made;
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

    /** The exchange a call sending {@code template}, an op's prepared request itself, is answered from, or null. */
    OpExchange ofTemplate(ObjectNode template) {
        return byTemplate.get(template);
    }

    /**
     * The exchange a {@code Transport} payload is for, or {@code null} when no cassette answers it.
     *
     * @throws UnlistedOp when the payload is for an op the scenario does not list and no cassette answers it
     */
    OpExchange forPayload(ObjectNode payload, int repair, Set<String> scenarioOps, String repairInstruction) {
        ObjectNode request = payload;
        boolean isRepair = payload.has(RepairRequest.MARKER);
        RepairTemplate made = null;
        if (isRepair) {
            made = byRepairTemplate.get(payload);
            if (made != null && made.exchange != null && java.util.Objects.equals(made.instruction, repairInstruction)) {
                return made.exchange;
            }
            request = RepairRequest.sent(payload);
        } else {
            OpExchange known = byTemplate.get(payload);
            if (known != null) {
                return known;
            }
        }
        String fp = fingerprint(request);
        OpExchange exchange = sameRequest(fp, request);
        if (exchange == null) {
            exchange = byFingerprint.get(fp);
        }
        if (exchange == null && isRepair) {
            exchange = repairExchange(request, fp, repairInstruction);
        } else if (exchange == null) {
            exchange = declaredInAnyToolOrder(request);
        }
        if (exchange != null && made != null && java.util.Objects.equals(made.instruction, repairInstruction)) {
            made.exchange = exchange;
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
        String originalFp = fingerprint(original);
        OpExchange known = sameRequest(originalFp, original);
        OpExchange exact = known != null ? known : byFingerprint.get(originalFp);
        // Only a repair of a request sent with its tools in another order looks for its own cassette so too.
        boolean reordered = exact == null;
        OpExchange op = reordered ? declaredInAnyToolOrder(original) : exact;
        if (op == null) {
            return null;
        }
        return repairs.computeIfAbsent(fp, k -> {
            Path own = op.file().resolveSibling(k + ".json");
            if (Files.isRegularFile(own)) {
                return new OpExchange(op.op(), sent, k, own);
            }
            Path other = reordered ? store.fileInAnyToolOrder(sent) : null;
            return other != null ? new OpExchange(op.op(), sent, CassetteStore.fingerprintOf(other), other) : op;
        });
    }

    /**
     * The declared op whose request differs from {@code request} only in the order of its tools, by the cassette
     * that answers both; {@code null} when there is none, or {@code request} has no tools to reorder.
     */
    private OpExchange declaredInAnyToolOrder(ObjectNode request) {
        Path file = store.fileInAnyToolOrder(request);
        return file == null ? null : byFingerprint.get(CassetteStore.fingerprintOf(file));
    }

    /** Whether a look-up has needed the cassettes by their tool-order-free fingerprint (and so indexed them). */
    boolean toolOrderIndexed() {
        return store.toolOrderIndexed();
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

    /**
     * The exchange an SDK's request is for when {@link #forRequest} found none: a declared op's request, or a
     * recorded cassette, that differs from it only in the order of its tools (docs cassettes.md, "Tool order");
     * {@code null} when there is none. Answered as the recording is, under the recording's fingerprint.
     *
     * @param scoped the op of the scope the request was made in, or {@code null}; it wins over a label
     */
    OpExchange forRequestInAnyToolOrder(ObjectNode body, int repair, String scoped) {
        ObjectNode request = body;
        if (repair > 0) {
            request = body.deepCopy();
            request.remove("repair");
        }
        Path file = store.fileInAnyToolOrder(request);
        if (file == null) {
            return null;
        }
        String recordedFp = CassetteStore.fingerprintOf(file);
        // Known under the request's own fingerprint, which the next same request's exact look-up meets first.
        String fp = fingerprint(request);
        OpExchange declared = byFingerprint.get(recordedFp);
        if (declared != null) {
            return scoped == null || scoped.equals(declared.op()) ? declared
                    : recorded.computeIfAbsent(fp + "/" + scoped, k -> new OpExchange(scoped, declared.request(),
                            recordedFp, declared.file()));
        }
        String op = scoped != null ? scoped : label(file);
        if (op == null) {
            return null;
        }
        OpExchange made = new OpExchange(op, request, recordedFp, file);
        OpExchange raced = recorded.putIfAbsent(fp + "/" + op, made);
        return raced != null ? raced : made;
    }

    /** Makes a just-recorded cassette known, so that the rest of the run is answered from it. */
    OpExchange recorded(String op, ObjectNode request, Cassette cassette) {
        OpExchange made = new OpExchange(op, request, cassette.fingerprint(), cassette.file());
        answers.offer(made, answers.of(made, cassette));
        recorded.put(cassette.fingerprint() + "/" + op, made);
        // A request that differs from it only in the order of its tools is answered from it too, not recorded again.
        store.written(cassette);
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
        for (Map.Entry<ObjectNode, OpExchange> candidate : byRequest().entrySet()) {
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
