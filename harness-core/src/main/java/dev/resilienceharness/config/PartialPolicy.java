package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import dev.resilienceharness.policy.Jitter;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.policy.RetryAfterHandling;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The policy settings one {@code policy:} mapping declares, each {@code null} where it is silent. A scenario's
 * {@code policy:} is laid {@link #over} the top-level one key by key, nested keys included, and the result
 * {@link #toPolicy filled} with the defaults.
 */
@API(status = INTERNAL, since = "0.1.0")
public record PartialPolicy(
        Integer maxAttempts,
        Duration baseDelay,
        Duration maxDelay,
        Duration maxTotalWait,
        RetryAfterHandling withRetryAfter,
        Duration maxRetryAfter,
        Integer repairAttempts,
        Duration slowThreshold,
        Integer concurrency,
        Jitter jitter,
        String repairInstruction,
        Integer maxRounds) {

    /** No settings at all. */
    public static final PartialPolicy EMPTY = new PartialPolicy(null, null, null, null, null, null, null, null, null);

    /** Settings that leave {@code max_rounds} unsaid. */
    public PartialPolicy(Integer maxAttempts, Duration baseDelay, Duration maxDelay, Duration maxTotalWait,
            RetryAfterHandling withRetryAfter, Duration maxRetryAfter, Integer repairAttempts, Duration slowThreshold,
            Integer concurrency, Jitter jitter, String repairInstruction) {
        this(maxAttempts, baseDelay, maxDelay, maxTotalWait, withRetryAfter, maxRetryAfter, repairAttempts,
                slowThreshold, concurrency, jitter, repairInstruction, null);
    }

    /** Settings that leave {@code jitter}, {@code schema.repair_instruction} and {@code max_rounds} unsaid. */
    public PartialPolicy(Integer maxAttempts, Duration baseDelay, Duration maxDelay, Duration maxTotalWait,
            RetryAfterHandling withRetryAfter, Duration maxRetryAfter, Integer repairAttempts, Duration slowThreshold,
            Integer concurrency) {
        this(maxAttempts, baseDelay, maxDelay, maxTotalWait, withRetryAfter, maxRetryAfter, repairAttempts,
                slowThreshold, concurrency, null, null, null);
    }

    static final List<String> KEYS = List.of("max_attempts", "base_delay", "max_delay", "max_total_wait", "quota",
            "schema", "slow_first_token", "concurrency", "jitter", "max_rounds");
    static final List<String> QUOTA_KEYS = List.of("with_retry_after", "max_retry_after");
    static final List<String> SCHEMA_KEYS = List.of("repair_attempts", "repair_instruction");
    static final List<String> JITTERS = List.of(Jitter.NONE.yamlName(), Jitter.FULL.yamlName(),
            Jitter.EQUAL.yamlName());
    static final List<String> SLOW_KEYS = List.of("threshold");
    static final List<String> RETRY_AFTER_HANDLINGS = List.of(RetryAfterHandling.RETRY_ONCE.yamlName(),
            RetryAfterHandling.STOP.yamlName());

    /** Reads a {@code policy:} mapping found at {@code path}. */
    public static PartialPolicy read(NodeReader r, YamlNode node, String path) throws ConfigException {
        YamlNode.Mapping m = r.mapping(node, path, "a mapping of policy settings such as max_attempts", KEYS);
        Integer maxAttempts = m.get("max_attempts") == null ? null
                : r.integer(m.get("max_attempts"), NodeReader.child(path, "max_attempts"), 1);
        Duration baseDelay = optionalDuration(r, m, path, "base_delay");
        Duration maxDelay = optionalDuration(r, m, path, "max_delay");
        Duration maxTotalWait = optionalDuration(r, m, path, "max_total_wait");

        RetryAfterHandling withRetryAfter = null;
        Duration maxRetryAfter = null;
        if (m.get("quota") != null) {
            String quotaPath = NodeReader.child(path, "quota");
            YamlNode.Mapping quota = r.mapping(m.get("quota"), quotaPath,
                    "a mapping with with_retry_after and max_retry_after", QUOTA_KEYS);
            if (quota.get("with_retry_after") != null) {
                withRetryAfter = RetryAfterHandling.fromYaml(r.oneOf(quota.get("with_retry_after"),
                        NodeReader.child(quotaPath, "with_retry_after"), RETRY_AFTER_HANDLINGS));
            }
            maxRetryAfter = optionalDuration(r, quota, quotaPath, "max_retry_after");
        }

        Integer repairAttempts = null;
        String repairInstruction = null;
        if (m.get("schema") != null) {
            String schemaPath = NodeReader.child(path, "schema");
            YamlNode.Mapping schema = r.mapping(m.get("schema"), schemaPath,
                    "a mapping with repair_attempts and repair_instruction", SCHEMA_KEYS);
            repairAttempts = schema.get("repair_attempts") == null ? null
                    : r.integer(schema.get("repair_attempts"), NodeReader.child(schemaPath, "repair_attempts"), 0);
            repairInstruction = schema.get("repair_instruction") == null ? null
                    : r.nonBlankText(schema.get("repair_instruction"),
                            NodeReader.child(schemaPath, "repair_instruction"),
                            "the instruction a repair call appends to the request's messages, as text");
        }
        Jitter jitter = m.get("jitter") == null ? null
                : Jitter.fromYaml(r.oneOf(m.get("jitter"), NodeReader.child(path, "jitter"), JITTERS));

        Duration slowThreshold = null;
        if (m.get("slow_first_token") != null) {
            String slowPath = NodeReader.child(path, "slow_first_token");
            YamlNode.Mapping slow = r.mapping(m.get("slow_first_token"), slowPath, "a mapping with threshold",
                    SLOW_KEYS);
            slowThreshold = optionalDuration(r, slow, slowPath, "threshold");
        }

        Integer concurrency = m.get("concurrency") == null ? null
                : r.integer(m.get("concurrency"), NodeReader.child(path, "concurrency"), 1);
        Integer maxRounds = m.get("max_rounds") == null ? null
                : r.integer(m.get("max_rounds"), NodeReader.child(path, "max_rounds"), 1);
        return new PartialPolicy(maxAttempts, baseDelay, maxDelay, maxTotalWait, withRetryAfter, maxRetryAfter,
                repairAttempts, slowThreshold, concurrency, jitter, repairInstruction, maxRounds);
    }

    /** These settings where given, {@code base}'s elsewhere. */
    public PartialPolicy over(PartialPolicy base) {
        return new PartialPolicy(
                either(maxAttempts, base.maxAttempts),
                either(baseDelay, base.baseDelay),
                either(maxDelay, base.maxDelay),
                either(maxTotalWait, base.maxTotalWait),
                either(withRetryAfter, base.withRetryAfter),
                either(maxRetryAfter, base.maxRetryAfter),
                either(repairAttempts, base.repairAttempts),
                either(slowThreshold, base.slowThreshold),
                either(concurrency, base.concurrency),
                either(jitter, base.jitter),
                either(repairInstruction, base.repairInstruction),
                either(maxRounds, base.maxRounds));
    }

    /**
     * The policy these settings make, each missing one at its default.
     *
     * @throws IllegalStateException when {@code max_total_wait}, which has no default, is missing
     */
    public Policy toPolicy() {
        if (maxTotalWait == null) {
            throw new IllegalStateException("max_total_wait has no default");
        }
        return new Policy(
                either(maxAttempts, Policy.DEFAULT_MAX_ATTEMPTS),
                either(baseDelay, Policy.DEFAULT_BASE_DELAY),
                either(maxDelay, Policy.DEFAULT_MAX_DELAY),
                maxTotalWait,
                new Policy.Quota(either(withRetryAfter, RetryAfterHandling.RETRY_ONCE),
                        either(maxRetryAfter, Policy.DEFAULT_MAX_RETRY_AFTER)),
                new Policy.Schema(either(repairAttempts, Policy.DEFAULT_REPAIR_ATTEMPTS), repairInstruction),
                new Policy.SlowFirstToken(either(slowThreshold, Policy.DEFAULT_SLOW_THRESHOLD)),
                either(concurrency, Policy.DEFAULT_CONCURRENCY),
                either(jitter, Jitter.NONE),
                either(maxRounds, Policy.DEFAULT_MAX_ROUNDS));
    }

    private static Duration optionalDuration(NodeReader r, YamlNode.Mapping m, String path, String key)
            throws ConfigException {
        YamlNode node = m.get(key);
        return node == null ? null : r.duration(node, NodeReader.child(path, key));
    }

    private static <T> T either(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
