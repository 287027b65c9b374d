package dev.resilienceharness.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.ProviderCall;
import dev.resilienceharness.live.Recorder;
import dev.resilienceharness.live.UnexpectedStatus;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.TransientError;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The drift check behind {@code mvn resilience:drift}: sends the selected cassettes' requests to the live provider,
 * redacts each answer in memory as a recording would, and compares it with the cassette ({@link DriftComparison}).
 * Nothing is written unless {@link DriftOptions#update} asks, and then only the drifted cassettes, through the
 * recording's redaction. After a quota rejection, or once {@link DriftOptions#maxRequests} are sent, nothing more
 * is sent.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class DriftCheck {

    private final HarnessConfig config;
    private final ProviderCall provider;
    private final UnaryOperator<ObjectNode> redaction;
    private final VolatilePaths volatilePaths;
    private final DriftComparison comparison;
    private final java.time.Clock recordedAt;

    /**
     * @param provider  where requests go ({@code LiveTransport} outside tests)
     * @param redaction what a recording applies before a cassette is written; applied to every live answer in
     *                  memory, and to a re-recorded cassette
     */
    public DriftCheck(HarnessConfig config, ProviderCall provider, UnaryOperator<ObjectNode> redaction) {
        this(config, provider, redaction, null);
    }

    /** A check whose re-recorded cassettes carry {@code recorded_at} from {@code recordedAt} ({@code null}: none). */
    public DriftCheck(HarnessConfig config, ProviderCall provider, UnaryOperator<ObjectNode> redaction,
            java.time.Clock recordedAt) {
        this.recordedAt = recordedAt;
        this.config = Objects.requireNonNull(config, "config");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.redaction = Objects.requireNonNull(redaction, "redaction");
        this.volatilePaths = VolatilePaths.of(config.volatilePaths());
        this.comparison = new DriftComparison(config.drift(), config.volatilePaths());
    }

    /** A scenario {@code -Dresilience.drift.scenario} names that the yaml does not declare. */
    public static final class UnknownScenario extends Exception {
        UnknownScenario(String message) {
            super(message);
        }
    }

    /** A cassette to send: the file, the op it answers, and its content (or why it cannot be read). */
    private record Candidate(Path file, String op, int order, Cassette cassette, String unreadable) {
        /** An op with no cassette: there is nothing to compare, so nothing is sent. */
        boolean missing() {
            return cassette == null && unreadable == null;
        }
    }

    /**
     * Sends the selected cassettes' requests and compares the answers.
     *
     * @throws UnknownScenario when {@code options.scenario()} names no scenario of the yaml
     * @throws IOException     when the cassette folder cannot be listed
     */
    public DriftResult run(DriftOptions options) throws UnknownScenario, IOException {
        List<Candidate> selected = select(options);
        List<DriftResult.Entry> entries = new ArrayList<>();
        CassetteStore writer = options.update()
                ? new CassetteStore(config.cassettes(), volatilePaths, Mode.RECORD, redaction, recordedAt) : null;
        String stoppedBy = null;
        int sent = 0;
        for (Candidate c : selected) {
            String name = fileName(c.file());
            if (c.missing()) {
                entries.add(entry(name, c.op(), DriftResult.Status.NOT_SENT, DriftMessages.noCassette(c.op()), null));
                continue;
            }
            if (c.cassette() == null) {
                entries.add(entry(name, c.op(), DriftResult.Status.FAILED, c.unreadable(), null));
                continue;
            }
            if (stoppedBy != null) {
                entries.add(entry(name, c.op(), DriftResult.Status.NOT_SENT, stoppedBy, c.cassette()));
                continue;
            }
            if (sent == options.maxRequests()) {
                stoppedBy = DriftMessages.stoppedByBudget(options.maxRequests());
                entries.add(entry(name, c.op(), DriftResult.Status.NOT_SENT, stoppedBy, c.cassette()));
                continue;
            }
            sent++;
            try {
                entries.add(compare(name, c, writer));
            } catch (QuotaExhausted q) {
                stoppedBy = DriftMessages.stoppedByQuota(c.op(), q.retryAfter());
                entries.add(entry(name, c.op(), DriftResult.Status.FAILED, "the provider answered 429; "
                        + stoppedBy, c.cassette()));
            } catch (TransientError t) {
                entries.add(entry(name, c.op(), DriftResult.Status.FAILED,
                        DriftMessages.transientFailure(t.isTimeout(), t.status()), c.cassette()));
            } catch (CallFailure | UnexpectedStatus | RecordingRedaction.Refused e) {
                entries.add(entry(name, c.op(), DriftResult.Status.FAILED, e.getMessage(), c.cassette()));
            } catch (IOException e) {
                entries.add(entry(name, c.op(), DriftResult.Status.FAILED, e.getMessage(), c.cassette()));
            }
        }
        return new DriftResult(entries, stoppedBy);
    }

    private DriftResult.Entry compare(String name, Candidate c, CassetteStore writer)
            throws CallFailure, UnexpectedStatus, IOException {
        Cassette cassette = c.cassette();
        CassetteStore.Recorded live = provider.send(c.op(), cassette.request().deepCopy(),
                shapeOf(cassette.response()));
        // The live answer is compared as it would be written: volatile paths stripped, secrets redacted.
        ObjectNode asWritten = JsonNodeFactory.instance.objectNode();
        asWritten.set("request", cassette.request().deepCopy());
        asWritten.set("response", live.response().deepCopy());
        volatilePaths.strip(asWritten);
        JsonNode redacted = redaction.apply(asWritten).get("response");
        List<Change> changes = comparison.compare(cassette.request(), cassette.response(), cassette.timing(),
                redacted, live.timing());
        if (changes.isEmpty()) {
            return new DriftResult.Entry(name, c.op(), DriftResult.Status.UNCHANGED, changes, null,
                    cassette.timing(), live.timing(), false);
        }
        boolean updated = false;
        if (writer != null) {
            writer.write(cassette.request(), live.response(), live.timing(), cassette.op());
            updated = true;
        }
        return new DriftResult.Entry(name, c.op(), DriftResult.Status.DRIFTED, changes, null, cassette.timing(),
                live.timing(), updated);
    }

    private static DriftResult.Entry entry(String name, String op, DriftResult.Status status, String detail,
            Cassette cassette) {
        return new DriftResult.Entry(name, op, status, List.of(), detail, cassette == null ? null : cassette.timing(),
                null, false);
    }

    /** The API a cassette's answer comes from, told by its shape. */
    static ApiShape shapeOf(JsonNode response) {
        if (response.has("choices")) {
            return ApiShape.CHAT_COMPLETIONS;
        }
        if (response.path("output").has("message")) {
            return ApiShape.BEDROCK;
        }
        if (response.has("output") || "response".equals(response.path("object").asString(""))) {
            return ApiShape.RESPONSES;
        }
        if ("message".equals(response.path("type").asString(""))) {
            return ApiShape.MESSAGES;
        }
        if (response.has("candidates")) {
            return ApiShape.GEMINI;
        }
        return ApiShape.CHAT_COMPLETIONS;
    }

    /** The cassettes to send, in the order of the ops they answer and then by file name. */
    private List<Candidate> select(DriftOptions options) throws UnknownScenario, IOException {
        List<String> ops = Recorder.ops(config);
        Map<String, String> opByFingerprint = new HashMap<>();
        Map<String, Set<ObjectNode>> repairs = config.repairRequests();
        for (String op : ops) {
            opByFingerprint.putIfAbsent(CassetteReader.fingerprint(config.request(op), volatilePaths), op);
            for (ObjectNode repair : repairs.getOrDefault(op, Set.of())) {
                opByFingerprint.putIfAbsent(CassetteReader.fingerprint(repair, volatilePaths), op);
            }
        }
        List<String> wanted = null;
        if (options.scenario() != null) {
            Scenario s = config.scenarios().stream().filter(x -> x.name().equals(options.scenario())).findFirst()
                    .orElseThrow(() -> new UnknownScenario(DriftMessages.unknownScenario(options.scenario(),
                            config.scenarios().stream().map(Scenario::name).collect(Collectors.joining(", ")))));
            wanted = s.ops();
        }
        CassetteStore store = CassetteStore.replaying(config.cassettes(), volatilePaths);
        CassetteReader reader = new CassetteReader(config.cassettes(), volatilePaths);
        List<Candidate> all = new ArrayList<>();
        for (Path file : store.files()) {
            Cassette cassette;
            try {
                cassette = reader.read(file);
            } catch (CassetteException e) {
                all.add(new Candidate(file, "?", Integer.MAX_VALUE, null, e.getMessage()));
                continue;
            }
            String op = opByFingerprint.get(cassette.fingerprint());
            if (op == null) {
                op = cassette.op() != null ? cassette.op() : "?";
            }
            if (wanted != null && !wanted.contains(op)) {
                continue;
            }
            int order = ops.indexOf(op);
            all.add(new Candidate(file, op, order < 0 ? Integer.MAX_VALUE : order, cassette, null));
        }
        if (config.usesBuiltinLoop()) {
            for (String op : wanted != null ? wanted : ops) {
                if (all.stream().noneMatch(c -> c.op().equals(op))) {
                    String fp = CassetteReader.fingerprint(config.request(op), volatilePaths);
                    all.add(new Candidate(store.fileFor(fp), op, ops.indexOf(op), null, null));
                }
            }
        }
        all.sort(Comparator.comparingInt(Candidate::order).thenComparing(c -> c.file().getFileName().toString()));
        if (options.sample() == null || options.sample() >= all.size()) {
            return all;
        }
        List<Integer> indices = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            indices.add(i);
        }
        Collections.shuffle(indices, new Random(options.seed()));
        List<Integer> picked = new ArrayList<>(indices.subList(0, options.sample()));
        Collections.sort(picked);
        return picked.stream().map(all::get).toList();
    }

    private String fileName(Path file) {
        Path base = config.file().toAbsolutePath().getParent();
        return base.relativize(file.toAbsolutePath()).toString();
    }
}
