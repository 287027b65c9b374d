package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One secret found in a cassette. It never holds the secret itself: only a masked form and a fingerprint, so
 * any rendering of a finding (console, report.json, SARIF, HTML) is safe to publish.
 *
 * @param file        the scanned file, as given to the scanner
 * @param line        1-based line of the JSON string (or key) holding the secret
 * @param column      1-based column, in UTF-16 code units, of that string's opening quote
 * @param jsonPath    where the secret sits, e.g. {@code $.request.headers.Authorization}; JSON carried inside a
 *                    string continues the path ({@code ...function.arguments.api_key})
 * @param rule        the built-in rule that matched, or {@code null} for one of a team's own rules
 *                    ({@link GitleaksRules})
 * @param masked      at most the first four characters of the secret followed by {@code ****}
 * @param fingerprint 16 lowercase hex digits of SHA-256 over the rule id, a NUL and the secret: the same
 *                    secret gives the same fingerprint wherever it is, so allow-lists and baselines survive
 *                    re-recording
 * @param ruleId      the rule's stable id: the built-in rule's, or the id a team's rule has in its file
 */
@API(status = INTERNAL, since = "0.1.0")
public record Finding(Path file, int line, int column, String jsonPath, Rule rule, String masked,
                      String fingerprint, String ruleId) {

    private static final String MASK = "****";
    /** What a team's own rule is called where a built-in rule shows its title. */
    static final String TEAM_RULE_TITLE = "Team rule";

    public Finding {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(jsonPath, "jsonPath");
        Objects.requireNonNull(ruleId, "ruleId");
        if (rule != null && !rule.id().equals(ruleId)) {
            throw new IllegalArgumentException("ruleId must be the rule's id, " + rule.id());
        }
        Objects.requireNonNull(masked, "masked");
        if (!masked.endsWith(MASK) || masked.length() > 4 + MASK.length()) {
            throw new IllegalArgumentException("masked must be at most four characters followed by ****");
        }
        if (!isFingerprint(fingerprint)) {
            throw new IllegalArgumentException("fingerprint must be 16 lowercase hex digits");
        }
    }

    /** A finding of the built-in {@code rule}. */
    public Finding(Path file, int line, int column, String jsonPath, Rule rule, String masked, String fingerprint) {
        this(file, line, column, jsonPath, Objects.requireNonNull(rule, "rule"), masked, fingerprint, rule.id());
    }

    /** A finding for {@code secret}, which is masked and fingerprinted here and not kept. */
    static Finding of(Path file, int line, int column, String jsonPath, Rule rule, String secret) {
        return new Finding(file, line, column, jsonPath, rule, mask(secret), fingerprint(rule, secret));
    }

    /** The rule's short name: the built-in rule's title, or "Team rule" for a team's own. */
    public String title() {
        return rule != null ? rule.title() : TEAM_RULE_TITLE;
    }

    /** {@code file:line:column}. */
    public String location() {
        return file + ":" + line + ":" + column;
    }

    /**
     * The 16-hex fingerprint a finding of {@code rule} on {@code secret} has: SHA-256 over the UTF-8 bytes of
     * the rule id, a NUL and the secret. Use it to compute {@code redaction.allow} entries.
     */
    public static String fingerprint(Rule rule, String secret) {
        return fingerprint(rule.id(), secret);
    }

    /** {@link #fingerprint(Rule, String)} for a rule known by its id, such as a team's own rule. */
    public static String fingerprint(String ruleId, String secret) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(ruleId.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            byte[] digest = sha.digest(secret.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /**
     * The masked form of a secret: its first four characters and {@code ****}, fewer for short secrets (a
     * third of the length, rounded down) so the whole secret never shows.
     */
    public static String mask(String secret) {
        int shown = Math.min(4, secret.length() / 3);
        if (shown > 0 && Character.isHighSurrogate(secret.charAt(shown - 1))) {
            shown--;
        }
        StringBuilder sb = new StringBuilder(shown + MASK.length());
        for (int i = 0; i < shown; i++) {
            char c = secret.charAt(i);
            sb.append(Character.isISOControl(c) ? '?' : c);
        }
        return sb.append(MASK).toString();
    }

    /** Whether {@code text} has the shape of a finding fingerprint: 16 lowercase hex digits. */
    public static boolean isFingerprint(String text) {
        if (text == null || text.length() != 16) {
            return false;
        }
        for (int i = 0; i < 16; i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** {@code file:line:column: rule-id at $.path: sk-p**** (fingerprint 0123456789abcdef)}. */
    @Override
    public String toString() {
        return location() + ": " + ruleId + " at " + jsonPath + ": " + masked + " (fingerprint " + fingerprint
                + ")";
    }
}
