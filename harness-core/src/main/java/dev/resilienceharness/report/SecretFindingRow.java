package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.secrets.Finding;
import java.nio.file.Path;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A secret finding as every report shows it: where it is, which rule matched, and the masked match. The raw
 * secret never reaches a report, so this type has no place for it.
 *
 * @param file        the cassette file, as the scanner names it
 * @param line        1-based line of the match
 * @param column      1-based column of the match
 * @param jsonPath    the JSON path of the key or value holding it
 * @param rule        the rule id
 * @param masked      the masked match (e.g. {@code sk-p****})
 * @param fingerprint the content fingerprint (rule and secret), which {@code redaction.allow} and baselines name
 */
@API(status = INTERNAL, since = "0.1.0")
public record SecretFindingRow(String file, int line, int column, String jsonPath, String rule, String masked,
        String fingerprint) {

    public SecretFindingRow {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(jsonPath, "jsonPath");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(masked, "masked");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }

    /** The row of {@code finding}, its file relative to {@code base} when inside it, with forward slashes. */
    public static SecretFindingRow of(Finding finding, Path base) {
        Path file = finding.file().toAbsolutePath().normalize();
        Path root = base.toAbsolutePath().normalize();
        String shown = file.startsWith(root) ? root.relativize(file).toString().replace('\\', '/') : file.toString();
        return new SecretFindingRow(shown, finding.line(), finding.column(), finding.jsonPath(), finding.ruleId(),
                finding.masked(), finding.fingerprint());
    }

    /** {@code file:line:column}, as consoles and editors link it. */
    public String location() {
        return file + ":" + line + ":" + column;
    }
}
