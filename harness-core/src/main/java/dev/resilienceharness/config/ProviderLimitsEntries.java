package dev.resilienceharness.config;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads a {@code provider_limits:} block strictly, at top level or in a scenario: every limit is a whole number of at
 * least 1 and {@code shared} is {@code true}, {@code false} or a pool name.
 */
final class ProviderLimitsEntries {

    static final List<String> KEYS = List.of("requests_per_minute", "tokens_per_minute", "token_quota",
            "max_concurrency", "shared");

    /** The most digits a token quota may have: far beyond any provider's, far from a long's overflow. */
    static final int MAX_QUOTA_DIGITS = 15;

    private static final Pattern POOL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
    private static final String POOL_WHAT = "true, false, or a pool name such as team-a (letters, digits, _ . -)";

    private ProviderLimitsEntries() {
    }

    static ProviderLimits read(NodeReader r, YamlNode v, String path) throws ConfigException {
        YamlNode.Mapping m = r.mapping(v, path, "a mapping of provider limits (requests_per_minute,"
                + " tokens_per_minute, token_quota, max_concurrency, shared)", KEYS);
        Integer rpm = m.get("requests_per_minute") == null ? null
                : r.integer(m.get("requests_per_minute"), NodeReader.child(path, "requests_per_minute"), 1);
        Integer tpm = m.get("tokens_per_minute") == null ? null
                : r.integer(m.get("tokens_per_minute"), NodeReader.child(path, "tokens_per_minute"), 1);
        Long quota = m.get("token_quota") == null ? null
                : quota(r, m.get("token_quota"), NodeReader.child(path, "token_quota"));
        Integer concurrency = m.get("max_concurrency") == null ? null
                : r.integer(m.get("max_concurrency"), NodeReader.child(path, "max_concurrency"), 1);
        String pool = m.get("shared") == null ? null : pool(r, m.get("shared"), NodeReader.child(path, "shared"));
        return new ProviderLimits(rpm, tpm, quota, concurrency, pool);
    }

    private static long quota(NodeReader r, YamlNode v, String path) throws ConfigException {
        if (!(v instanceof YamlNode.Scalar s) || s.type() != YamlNode.ScalarType.INTEGER) {
            throw r.wrongType(v, path, "a whole number of tokens of at least 1, such as 200000", null);
        }
        String digits = s.text();
        if (digits.startsWith("-") || digits.chars().allMatch(c -> c == '0')) {
            throw r.error(v, path, ConfigMessages.integerTooSmall(1, digits));
        }
        if (digits.length() > MAX_QUOTA_DIGITS) {
            throw r.error(v, path, ConfigMessages.integerTooLong(MAX_QUOTA_DIGITS));
        }
        return Long.parseLong(digits);
    }

    private static String pool(NodeReader r, YamlNode v, String path) throws ConfigException {
        if (v instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.BOOLEAN) {
            return s.text().equals("true") ? ProviderLimits.SHARED : ProviderLimits.OWN;
        }
        String name = r.text(v, path, POOL_WHAT);
        if (!POOL.matcher(name).matches()) {
            throw r.error(v, path, ConfigMessages.expected(POOL_WHAT, v.describe()));
        }
        return name;
    }
}
