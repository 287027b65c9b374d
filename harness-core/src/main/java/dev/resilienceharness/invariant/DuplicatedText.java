package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.StreamTrace;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Partial work, for streams: a retry after a broken stream must not repeat text the loop had already emitted. When a
 * stream of an op broke part-way (cut, stalled, an error or a malformed event) after some text had arrived, the op's
 * outcome may hold that text no more often than the whole recorded answer does; a loop that appends the retry's text
 * to the partial text it kept emits the beginning twice — the salvage bug. The outcome's text is every string in its
 * value. Reported once per op, under {@link Invariant#PARTIAL_WORK}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class DuplicatedText implements ScenarioInvariant {

    @Override
    public Invariant invariant() {
        return Invariant.PARTIAL_WORK;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        Set<String> reported = new HashSet<>();
        for (StreamTrace stream : trace.streams()) {
            String partial = stream.partialText();
            if (!stream.broken() || partial.isBlank() || reported.contains(stream.op())) {
                continue;
            }
            Outcome outcome = outcomeOf(trace, stream.op());
            if (outcome == null || outcome.value() == null) {
                continue;
            }
            int allowed = Math.max(1, occurrences(stream.fullText(), partial));
            int found = occurrencesIn(outcome.value(), partial);
            if (found > allowed) {
                reported.add(stream.op());
                String sdk = retriedBySdk(trace, stream);
                out.add(new Violation(Invariant.PARTIAL_WORK, trace.scenario().name(), stream.op(),
                        "at most " + StreamMessages.times(allowed), StreamMessages.times(found),
                        StreamMessages.duplicated(partial, stream.end(), stream.arrived(), found)
                                + (sdk == null ? "" : Messages.retriedBySdk(sdk)),
                        sdk == null ? StreamMessages.HINT_DUPLICATED : StreamMessages.hintSdkReplayed(sdk)));
            }
        }
        return out;
    }

    /**
     * The retry-stack audit: the SDK whose own retry was the op's next call after the broken stream (an SDK that
     * retries a stream that broke after its 200, as Bedrock's async client does), or {@code null} for the loop.
     */
    private static String retriedBySdk(RunTrace trace, StreamTrace stream) {
        for (dev.resilienceharness.trace.CallRecord c : trace.calls()) {
            if (c.index() > stream.call() && c.op().equals(stream.op())) {
                return c.bySdk() ? c.sdk() : null;
            }
        }
        return null;
    }

    private static Outcome outcomeOf(RunTrace trace, String op) {
        for (Outcome o : trace.outcomes()) {
            if (o.op().equals(op)) {
                return o;
            }
        }
        return null;
    }

    /** How often {@code part} occurs in the strings of {@code value}, each string counted on its own. */
    static int occurrencesIn(JsonNode value, String part) {
        if (value.isString()) {
            return occurrences(value.asString(), part);
        }
        int n = 0;
        for (JsonNode child : value) {
            n += occurrencesIn(child, part);
        }
        return n;
    }

    /** Non-overlapping occurrences of {@code part} in {@code text}. */
    static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }
}
