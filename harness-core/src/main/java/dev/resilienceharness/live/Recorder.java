package dev.resilienceharness.live;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.RecordSummary.Entry;
import dev.resilienceharness.live.RecordSummary.Result;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.ToolCallSchema;
import dev.resilienceharness.transport.TransientError;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * The recording pass behind {@code mvn resilience:record}: sends every distinct op of every scenario, in order,
 * exactly as declared, and writes its cassette through {@link CassetteStore#exchange}, volatile paths stripped and
 * the redaction applied before anything touches disk. In {@code record-missing} mode an op whose cassette exists
 * is not sent. After a quota rejection nothing more is sent in the pass. An op the yaml declares no request for is
 * neither sent nor written: only a team's loop knows what it sends ({@code LoopRecorder}).
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Recorder {

    private final HarnessConfig config;
    private final ProviderCall provider;
    private final CassetteStore store;
    private final ToolCallSchema schemas = new ToolCallSchema();
    private final int samples;

    /**
     * @param mode      {@link Mode#RECORD} or {@link Mode#RECORD_MISSING}
     * @param provider  where requests go ({@link LiveTransport} outside tests)
     * @param redaction the last change to each cassette before it is written: drops credentials, masks secrets
     */
    public Recorder(HarnessConfig config, Mode mode, ProviderCall provider, UnaryOperator<ObjectNode> redaction) {
        this(config, mode, provider, redaction, null, 1);
    }

    /**
     * A recorder that stamps each cassette with {@code recorded_at} and sends each request {@code samples} times,
     * keeping the first answer and every send's timing ({@code timing.samples}) when there is more than one.
     *
     * @param recordedAt tells the recording time ({@code null}: no {@code recorded_at})
     * @param samples    how many times each request is sent, at least 1
     */
    public Recorder(HarnessConfig config, Mode mode, ProviderCall provider, UnaryOperator<ObjectNode> redaction,
            java.time.Clock recordedAt, int samples) {
        if (samples < 1) {
            throw new IllegalArgumentException("samples must be at least 1, was " + samples);
        }
        this.samples = samples;
        this.config = Objects.requireNonNull(config, "config");
        this.provider = Objects.requireNonNull(provider, "provider");
        if (mode == Mode.REPLAY) {
            throw new IllegalArgumentException("the recorder records: use record or record-missing, not replay");
        }
        this.store = new CassetteStore(config.cassettes(), VolatilePaths.of(config.volatilePaths()), mode,
                Objects.requireNonNull(redaction, "redaction"), recordedAt);
    }

    /** The distinct ops of every scenario, in the order they first appear. */
    public static List<String> ops(HarnessConfig config) {
        Set<String> ops = new LinkedHashSet<>();
        for (Scenario s : config.scenarios()) {
            ops.addAll(s.ops());
        }
        return List.copyOf(ops);
    }

    /**
     * Records every op and says what happened to each; a failed op does not end the pass. An op whose answer breaks
     * its tool-call schema also has its repair requests recorded ({@link HarnessConfig#repairRequests}), so that a
     * repair with the policy's instruction replays its own answer.
     */
    public RecordSummary record() {
        List<Entry> entries = new ArrayList<>();
        Map<String, String> sentThisPass = new HashMap<>();
        String[] stoppedBy = {null};
        Map<String, Set<ObjectNode>> repairs = config.repairRequests();
        for (String op : ops(config)) {
            if (!config.requests().containsKey(op)) {
                // Only a team's loop knows what such an op sends; a placeholder body is never sent or written.
                entries.add(undeclared(op));
                continue;
            }
            ObjectNode request = config.request(op);
            String fp = store.fingerprint(request);
            entries.add(send(op, op, fp, request, sentThisPass, stoppedBy));
            Set<ObjectNode> ofOp = repairs.getOrDefault(op, Set.of());
            if (ofOp.isEmpty() || !brokenAnswer(fp, request)) {
                continue;
            }
            for (ObjectNode repair : ofOp) {
                entries.add(send(op + " (repair)", op, store.fingerprint(repair), repair, sentThisPass, stoppedBy));
            }
        }
        return new RecordSummary(entries);
    }

    /** An op without a {@code requests:} entry: a cassette it already has is kept as it is; none is ever made. */
    private Entry undeclared(String op) {
        String fp = store.fingerprint(config.request(op));
        try {
            Cassette c = store.get(fp);
            if (c != null) {
                return new Entry(op, fp, Result.PRESENT, "(" + fileName(c) + ")");
            }
        } catch (CassetteException e) {
            // Not sent either way; the unusable file is reported where it is read.
        }
        return new Entry(op, fp, Result.FAILED, LiveMessages.UNDECLARED_REQUEST);
    }

    /** Whether the cassette for {@code fp} now holds an answer whose tool calls break their schema. */
    private boolean brokenAnswer(String fp, ObjectNode request) {
        try {
            Cassette c = store.get(fp);
            return c != null && schemas.problem(request, c.response()) != null;
        } catch (CassetteException e) {
            return false;
        }
    }

    private Entry send(String label, String op, String fp, ObjectNode request, Map<String, String> sentThisPass,
            String[] stoppedBy) {
        String same = sentThisPass.get(fp);
        if (same != null) {
            return new Entry(label, fp, Result.PRESENT, "(the same request as op '" + same + "')");
        }
        if (stoppedBy[0] != null) {
            return notSent(label, fp, stoppedBy[0]);
        }
        try {
            Entry entry = exchange(label, fp, request);
            sentThisPass.put(fp, op);
            return entry;
        } catch (Sent e) {
            Throwable cause = e.getCause();
            if (cause instanceof QuotaExhausted q) {
                stoppedBy[0] = "the provider rejected op '" + op + "' for quota"
                        + (q.retryAfter() == null ? "" : " (Retry-After: " + q.retryAfter() + ")");
                return new Entry(label, fp, Result.FAILED, "quota: the provider answered 429"
                        + (q.retryAfter() == null ? "" : " with Retry-After: " + q.retryAfter())
                        + "; nothing more is sent in this pass. Record again later");
            } else if (cause instanceof TransientError t) {
                return new Entry(label, fp, Result.FAILED, (t.isTimeout()
                        ? "transient: the call timed out or the connection dropped"
                        : "transient: the provider answered " + t.status()) + "; record again");
            }
            return new Entry(label, fp, Result.FAILED, cause.getMessage());
        } catch (CassetteException e) {
            return new Entry(label, fp, Result.FAILED, "the existing cassette is unusable: " + e.getMessage()
                    + ". Delete it or record with -Dresilience.mode=record");
        } catch (IOException e) {
            return new Entry(label, fp, Result.FAILED, "cannot write the cassette: " + e.getMessage());
        } catch (RecordingRedaction.Refused e) {
            return new Entry(label, fp, Result.FAILED, e.getMessage());
        }
    }

    private Entry exchange(String op, String fp, ObjectNode request) throws Sent, CassetteException, IOException {
        boolean[] sent = {false};
        Cassette c = store.exchange(op, request, r -> {
            sent[0] = true;
            try {
                // A Bedrock Converse request names its model as modelId, which its path carries; all else is Chat.
                ApiShape shape = r.has("modelId") ? ApiShape.BEDROCK : ApiShape.CHAT_COMPLETIONS;
                CassetteStore.Recorded first = provider.send(op, r, shape);
                if (samples == 1) {
                    return first;
                }
                List<dev.resilienceharness.cassette.Timing> timings = new ArrayList<>();
                timings.add(plain(first.timing()));
                for (int i = 1; i < samples; i++) {
                    timings.add(plain(provider.send(op, r.deepCopy(), shape).timing()));
                }
                dev.resilienceharness.cassette.Timing t = first.timing() != null ? first.timing()
                        : new dev.resilienceharness.cassette.Timing(null, null);
                return new CassetteStore.Recorded(first.response(), t.withSamples(timings));
            } catch (CallFailure | UnexpectedStatus | IOException e) {
                throw new Sent(e); // the provider's answer, told apart from a failure to write
            }
        });
        if (!sent[0]) {
            return new Entry(op, fp, Result.PRESENT, "(" + fileName(c) + ")");
        }
        String detail = fileName(c) + timing(c);
        String problem = schemas.problem(request, c.response());
        if (problem != null) {
            detail += "; its tool calls break their schema (" + problem + "), so it replays as a schema failure";
        }
        return new Entry(op, fp, Result.RECORDED, detail);
    }

    private static dev.resilienceharness.cassette.Timing plain(dev.resilienceharness.cassette.Timing t) {
        return t == null ? new dev.resilienceharness.cassette.Timing(null, null)
                : new dev.resilienceharness.cassette.Timing(t.firstTokenMs(), t.totalMs());
    }

    private String fileName(Cassette c) {
        return config.file().toAbsolutePath().getParent().relativize(c.file().toAbsolutePath()).toString();
    }

    private static String timing(Cassette c) {
        String samples = c.timing() == null || c.timing().samples().isEmpty() ? ""
                : " (" + c.timing().samples().size() + " timing samples)";
        if (c.timing() == null || c.timing().firstTokenMs() == null) {
            return samples;
        }
        return " (first token " + c.timing().firstTokenMs() + " ms)" + samples;
    }

    private Entry notSent(String op, String fp, String stoppedBy) {
        try {
            if (store.mode() == Mode.RECORD_MISSING && store.get(fp) != null) {
                return new Entry(op, fp, Result.PRESENT, "(" + fileName(store.get(fp)) + ")");
            }
        } catch (CassetteException e) {
            // Reported as not sent below; the next pass reports the unusable file.
        }
        return new Entry(op, fp, Result.FAILED, "not sent: " + stoppedBy);
    }

    /** Carries a provider's answer out of {@link CassetteStore.LiveCall}, which may only throw IOException. */
    private static final class Sent extends IOException {
        Sent(Exception cause) {
            super(cause.getMessage(), cause);
        }
    }
}
