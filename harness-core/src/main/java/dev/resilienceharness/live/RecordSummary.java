package dev.resilienceharness.live;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What a recording pass did, op by op, in the order the ops were visited.
 *
 * @param entries one per distinct scenario op
 */
@API(status = INTERNAL, since = "0.1.0")
public record RecordSummary(List<Entry> entries) {

    public RecordSummary {
        entries = List.copyOf(entries);
    }

    /** What happened to one op. */
    public enum Result {
        /** Sent to the provider and written. */
        RECORDED,
        /** Its cassette already existed (record-missing) or was written earlier in this pass; nothing was sent. */
        PRESENT,
        /** Not recorded; the detail says why. */
        FAILED
    }

    /**
     * One op's result.
     *
     * @param op          the op
     * @param fingerprint its request's fingerprint
     * @param result      recorded, already present or failed
     * @param detail      the cassette file and timing, why nothing was sent, or why it failed
     */
    public record Entry(String op, String fingerprint, Result result, String detail) {

        /** One line for a log: {@code plan: recorded cassettes/ab12.json (first token 420 ms)}. */
        public String line() {
            String what = switch (result) {
                case RECORDED -> "recorded";
                case PRESENT -> "already present";
                case FAILED -> "FAILED";
            };
            return op + ": " + what + (detail == null || detail.isEmpty() ? "" : " " + detail);
        }
    }

    /** How many ops ended with {@code result}. */
    public int count(Result result) {
        return (int) entries.stream().filter(e -> e.result() == result).count();
    }

    /** The entries that failed. */
    public List<Entry> failures() {
        return entries.stream().filter(e -> e.result() == Result.FAILED).toList();
    }

    /** The closing line: {@code 3 ops: 2 recorded, 1 already present, 0 failed}. */
    public String total() {
        return entries.size() + (entries.size() == 1 ? " op: " : " ops: ") + count(Result.RECORDED) + " recorded, "
                + count(Result.PRESENT) + " already present, " + count(Result.FAILED) + " failed";
    }
}
