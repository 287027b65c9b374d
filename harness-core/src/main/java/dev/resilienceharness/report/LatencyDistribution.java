package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The timing samples one cassette recorded ({@code -Dresilience.record.samples=N}), summed up as the report shows
 * them: how many, and the median, 95th percentile and slowest first-token and total times.
 *
 * @param cassette   the file, relative to the yaml's folder
 * @param op         the op it answers, or {@code null} when unlabelled
 * @param samples    how many timings were recorded
 * @param firstToken median, p95 and max first-token milliseconds, or {@code null} when none was recorded
 * @param total      median, p95 and max total milliseconds, or {@code null} when none was recorded
 */
@API(status = INTERNAL, since = "0.1.0")
public record LatencyDistribution(String cassette, String op, int samples, Spread firstToken, Spread total) {

    /**
     * Three points of a distribution, nearest-rank.
     *
     * @param p50 the median
     * @param p95 the 95th percentile
     * @param max the slowest
     */
    public record Spread(long p50, long p95, long max) {

        /** The spread of {@code values}, or {@code null} for none. */
        static Spread of(List<Long> values) {
            if (values.isEmpty()) {
                return null;
            }
            List<Long> sorted = new ArrayList<>(values);
            sorted.sort(null);
            return new Spread(rank(sorted, 50), rank(sorted, 95), sorted.get(sorted.size() - 1));
        }

        private static long rank(List<Long> sorted, int percent) {
            int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
            return sorted.get(Math.max(0, index));
        }
    }

    public LatencyDistribution {
        Objects.requireNonNull(cassette, "cassette");
    }

    /** The distribution of one cassette's samples, or {@code null} when it recorded none. */
    public static LatencyDistribution of(String cassette, String op, Timing timing) {
        if (timing == null || timing.samples().isEmpty()) {
            return null;
        }
        List<Long> first = new ArrayList<>();
        List<Long> total = new ArrayList<>();
        for (Timing t : timing.samples()) {
            if (t.firstTokenMs() != null) {
                first.add(t.firstTokenMs());
            }
            if (t.totalMs() != null) {
                total.add(t.totalMs());
            }
        }
        return new LatencyDistribution(cassette, op, timing.samples().size(), Spread.of(first), Spread.of(total));
    }

    /** Every cassette of {@code config} with samples, by file name; an unreadable one is left to the checks. */
    public static List<LatencyDistribution> of(HarnessConfig config) throws IOException {
        VolatilePaths volatilePaths = VolatilePaths.of(config.volatilePaths());
        CassetteReader reader = new CassetteReader(config.cassettes(), volatilePaths);
        Path base = config.file().toAbsolutePath().getParent();
        List<LatencyDistribution> rows = new ArrayList<>();
        for (Path file : CassetteStore.replaying(config.cassettes(), volatilePaths).files()) {
            Cassette c;
            try {
                c = reader.read(file);
            } catch (CassetteException e) {
                continue;
            }
            LatencyDistribution d = of(base.relativize(file.toAbsolutePath()).toString(), opOf(config, c), c.timing());
            if (d != null) {
                rows.add(d);
            }
        }
        return rows;
    }

    private static String opOf(HarnessConfig config, Cassette c) {
        if (c.op() != null) {
            return c.op();
        }
        for (String op : config.requests().keySet()) {
            if (config.request(op).equals(c.request())) {
                return op;
            }
        }
        return c.request().path("op").isString() ? c.request().get("op").asString() : null;
    }
}
