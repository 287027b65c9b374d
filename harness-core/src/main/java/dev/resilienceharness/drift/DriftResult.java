package dev.resilienceharness.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Timing;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What a drift check found, cassette by cassette, in the order they were visited.
 *
 * @param entries   one per selected cassette
 * @param stoppedBy why sending stopped before the end (a quota rejection, the request budget), or {@code null}
 */
@API(status = INTERNAL, since = "0.1.0")
public record DriftResult(List<Entry> entries, String stoppedBy) {

    public DriftResult {
        entries = List.copyOf(entries);
    }

    /** What happened to one cassette. */
    public enum Status {
        /** Sent; the live answer matches on everything compared. */
        UNCHANGED,
        /** Sent; the live answer differs. */
        DRIFTED,
        /** Not sent: a quota rejection or the request budget stopped the check first. */
        NOT_SENT,
        /** Sent, but no usable answer came back; the detail says why. */
        FAILED;

        /** The name drift.json uses. */
        public String jsonName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One cassette's result.
     *
     * @param cassette       the cassette file, relative to the yaml's folder
     * @param op             the op it answers
     * @param status         unchanged, drifted, not sent or failed
     * @param changes        what drifted; empty unless drifted
     * @param detail         why it was not sent or failed, else {@code null}
     * @param recordedTiming the cassette's timing, or {@code null}
     * @param liveTiming     the live call's timing, or {@code null}
     * @param updated        whether the cassette was re-recorded from the live answer
     */
    public record Entry(String cassette, String op, Status status, List<Change> changes, String detail,
            Timing recordedTiming, Timing liveTiming, boolean updated) {

        public Entry {
            changes = List.copyOf(changes);
        }

        /** The log lines for this cassette: a heading, then one line per change. */
        public List<String> lines() {
            return switch (status) {
                case UNCHANGED -> List.of(DriftMessages.unchanged(cassette, op));
                case NOT_SENT -> List.of(DriftMessages.notSent(cassette, op, detail));
                case FAILED -> List.of(DriftMessages.failed(cassette, op, detail));
                case DRIFTED -> changes.stream().map(c -> DriftMessages.changeLine(cassette, op, c)).toList();
            };
        }
    }

    /** How many cassettes ended with {@code status}. */
    public int count(Status status) {
        return (int) entries.stream().filter(e -> e.status() == status).count();
    }

    /** The cassettes that drifted. */
    public List<Entry> drifted() {
        return entries.stream().filter(e -> e.status() == Status.DRIFTED).toList();
    }

    /** The closing line: {@code 3 cassettes checked: 1 drifted, 2 unchanged}. */
    public String total() {
        int sent = count(Status.UNCHANGED) + count(Status.DRIFTED);
        return DriftMessages.total(sent, count(Status.DRIFTED), count(Status.NOT_SENT), count(Status.FAILED));
    }
}
