package dev.resilienceharness.fault;

import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.transport.Reply;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code {latency: recorded}}: the call's answer arrives as late as one of the timings its cassette recorded
 * ({@code timing.samples}, from {@code -Dresilience.record.samples=N}), drawn by the call's request and position in
 * the run, so the same run always draws the same: the first-token time of a streamed answer, the total time of
 * another. A cassette without samples answers with its recorded timing.
 */
public record RecordedLatencyFault() implements Fault {

    public static final RecordedLatencyFault INSTANCE = new RecordedLatencyFault();

    @Override
    public String kind() {
        return "latency";
    }

    @Override
    public Object toYaml() {
        return Map.of(kind(), "recorded");
    }

    /** Without the cassette's samples at hand, the recorded answer as it is. */
    @Override
    public Reply strike(String op, Reply recorded) {
        return recorded;
    }

    /**
     * The fault call {@code call} of a run meets: {@code slow_first_token} by a drawn sample, or {@code none} when
     * there are no samples.
     *
     * @param fingerprint the fingerprint of the call's request, which seeds the draw with {@code call}
     */
    public Fault draw(List<Timing> samples, String fingerprint, int call) {
        if (samples.isEmpty()) {
            return NoFault.INSTANCE;
        }
        long seed = fingerprint.hashCode() * 1_000_003L + call;
        Timing t = samples.get(new SplittableRandom(seed).nextInt(samples.size()));
        Long ms = t.firstTokenMs() != null ? t.firstTokenMs() : t.totalMs();
        return ms == null ? NoFault.INSTANCE : new SlowFirstTokenFault(ms);
    }
}
