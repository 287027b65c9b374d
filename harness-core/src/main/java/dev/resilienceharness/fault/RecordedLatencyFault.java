package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.transport.Reply;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * {@code {latency: recorded}}: the call's answer arrives as late as one of the timings its cassette recorded
 * ({@code timing.samples}, from {@code -Dresilience.record.samples=N}), drawn by the call's request and position in
 * the run, so the same run always draws the same: its first token after the sample's first-token time (its total
 * time when none was recorded), and, where the replay path can (a loop's SDK over the in-process HTTP endpoint), the
 * rest of its body after the sample's total time. A cassette without samples answers with its recorded timing.
 */
@API(status = INTERNAL, since = "0.1.0")
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
        Timing t = sample(samples, fingerprint, call);
        if (t == null) {
            return NoFault.INSTANCE;
        }
        Long ms = t.firstTokenMs() != null ? t.firstTokenMs() : t.totalMs();
        return ms == null ? NoFault.INSTANCE : new SlowFirstTokenFault(ms);
    }

    /**
     * The sample call {@code call} of a run draws, the one {@link #draw} delays the call by, with both its first-token
     * and its total time; {@code null} when there are no samples.
     *
     * @param fingerprint the fingerprint of the call's request, which seeds the draw with {@code call}
     */
    public Timing sample(List<Timing> samples, String fingerprint, int call) {
        if (samples.isEmpty()) {
            return null;
        }
        long seed = fingerprint.hashCode() * 1_000_003L + call;
        return samples.get(new SplittableRandom(seed).nextInt(samples.size()));
    }

    /**
     * How long after the request the body of a drawn answer is complete: the sample's total time, when it is later
     * than its first byte ({@code firstByteMs}); else {@code null}, the body whole with its first byte.
     */
    public static Long bodyCompleteMs(Timing sample, long firstByteMs) {
        return sample == null || sample.totalMs() == null || sample.totalMs() <= firstByteMs ? null
                : sample.totalMs();
    }
}
