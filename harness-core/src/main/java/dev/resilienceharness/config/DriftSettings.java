package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * The {@code drift:} block: what {@code resilience:drift} leaves out of a comparison and how much a live answer may
 * differ before it counts as drift, and how old a cassette may grow.
 *
 * @param ignore          dotted response paths ({@code response.usage.prompt_tokens_details}) left out of the
 *                        comparison, on top of the {@code volatile} paths
 * @param latencyFactor   a live first-token or total time drifts when it is more than this many times the recorded
 *                        one ({@code latency_tolerance}, 2 unless set)
 * @param latencyMargin   ... and slower than the recorded one by more than this ({@code latency_margin}, 100 ms)
 * @param usageFactor     a live {@code usage} count drifts when it is more than this many times the recorded one
 *                        ({@code usage_tolerance}, 1.5 unless set)
 * @param maxAge          a cassette whose {@code recorded_at} is older than this is stale ({@code max_age}), or
 *                        {@code null} for no limit
 */
@API(status = INTERNAL, since = "0.1.0")
public record DriftSettings(List<String> ignore, double latencyFactor, Duration latencyMargin, double usageFactor,
        Duration maxAge) {

    /** No {@code drift:} block. */
    public static final DriftSettings DEFAULTS = new DriftSettings(List.of(), 2.0, Duration.ofMillis(100), 1.5, null);

    static final List<String> KEYS = List.of("ignore", "latency_tolerance", "latency_margin", "usage_tolerance",
            "max_age");

    private static final Pattern AGE = Pattern.compile("([0-9]{1,6})(d|h)");
    private static final String FACTOR = "a number of at least 1, such as 2 (twice the recorded)";
    private static final String AGE_WHAT = "an age such as 30d, 12h or 90m";

    public DriftSettings {
        ignore = List.copyOf(ignore);
        Objects.requireNonNull(latencyMargin, "latencyMargin");
    }

    /** Reads a {@code drift:} mapping. */
    static DriftSettings read(NodeReader r, YamlNode v) throws ConfigException {
        YamlNode.Mapping m = r.mapping(v, "drift", "a mapping with ignore, latency_tolerance, latency_margin,"
                + " usage_tolerance and max_age", KEYS);
        List<String> ignore = new ArrayList<>();
        if (m.get("ignore") != null) {
            List<YamlNode> items = r.list(m.get("ignore"), "drift.ignore", "a list of dotted response paths such as"
                    + " response.usage.prompt_tokens_details");
            for (int i = 0; i < items.size(); i++) {
                String key = NodeReader.index("drift.ignore", i);
                YamlNode item = items.get(i);
                String path = r.nonBlankText(item, key, "a dotted response path such as response.service_tier");
                if (!path.startsWith("response.")) {
                    throw r.error(item, key, ConfigMessages.expected("a dotted path that starts with response.,"
                            + " such as response.service_tier", item.describe()));
                }
                try {
                    dev.resilienceharness.json.VolatilePaths.of(List.of(path));
                } catch (IllegalArgumentException e) {
                    throw r.error(item, key, e.getMessage());
                }
                ignore.add(path);
            }
        }
        double latency = m.get("latency_tolerance") == null ? DEFAULTS.latencyFactor
                : factor(r, m.get("latency_tolerance"), "drift.latency_tolerance");
        Duration margin = m.get("latency_margin") == null ? DEFAULTS.latencyMargin
                : r.duration(m.get("latency_margin"), "drift.latency_margin");
        double usage = m.get("usage_tolerance") == null ? DEFAULTS.usageFactor
                : factor(r, m.get("usage_tolerance"), "drift.usage_tolerance");
        Duration maxAge = m.get("max_age") == null ? null : age(r, m.get("max_age"), "drift.max_age");
        return new DriftSettings(ignore, latency, margin, usage, maxAge);
    }

    private static double factor(NodeReader r, YamlNode node, String path) throws ConfigException {
        if (node instanceof YamlNode.Scalar s && (s.type() == YamlNode.ScalarType.INTEGER
                || s.type() == YamlNode.ScalarType.FLOAT)) {
            try {
                BigDecimal value = new BigDecimal(s.text());
                if (value.compareTo(BigDecimal.ONE) >= 0 && value.compareTo(BigDecimal.valueOf(1000)) <= 0) {
                    return value.doubleValue();
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw r.error(node, path, ConfigMessages.expected(FACTOR + ", at most 1000", node.describe()));
    }

    /** {@code 30d}, {@code 12h}, or any duration {@code policy:} accepts ({@code 90m}, {@code 3600s}). */
    private static Duration age(NodeReader r, YamlNode node, String path) throws ConfigException {
        if (node instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING) {
            Matcher matcher = AGE.matcher(s.text());
            if (matcher.matches()) {
                long n = Long.parseLong(matcher.group(1));
                Duration d = matcher.group(2).equals("d") ? Duration.ofDays(n) : Duration.ofHours(n);
                if (!d.isZero()) {
                    return d;
                }
            }
        }
        Duration d;
        try {
            d = r.duration(node, path);
        } catch (ConfigException e) {
            throw r.error(node, path, ConfigMessages.expected(AGE_WHAT, node.describe()));
        }
        if (d.isZero() || d.isNegative()) {
            throw r.error(node, path, ConfigMessages.expected(AGE_WHAT + ", more than zero", node.describe()));
        }
        return d;
    }
}
