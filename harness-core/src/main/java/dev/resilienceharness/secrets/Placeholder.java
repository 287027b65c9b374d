package dev.resilienceharness.secrets;

/**
 * What a redacted secret becomes: {@code [REDACTED:<rule-id>:<hash8>]}, where hash8 is the first eight hex digits
 * of the finding's fingerprint. The same secret always becomes the same text, so re-recording yields the same
 * bytes and request fingerprints.
 */
final class Placeholder {

    /** How every placeholder starts; no rule matches a value containing it. */
    static final String PREFIX = "[REDACTED:";

    private Placeholder() {
    }

    /** The placeholder for {@code secret} found by {@code rule}. */
    static String of(Rule rule, String secret) {
        return of(rule.id(), secret);
    }

    /** The placeholder for {@code secret} found by the rule {@code ruleId}, such as a team's own rule. */
    static String of(String ruleId, String secret) {
        return PREFIX + ruleId + ":" + Finding.fingerprint(ruleId, secret).substring(0, 8) + "]";
    }
}
