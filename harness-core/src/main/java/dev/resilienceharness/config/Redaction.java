package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What the secret scanner accepts (docs secrets.md).
 *
 * @param allow    regexes matched against a finding's secret, and finding fingerprints, that are not reported
 * @param baseline a baseline file of accepted finding fingerprints, resolved against the yaml's folder, or
 *                 {@code null}
 * @param gitleaksConfig the team's gitleaks rules: the file {@code secrets.gitleaks_config} names, else the
 *                 {@code .gitleaks.toml} beside the yaml when there is one, else {@code null}
 */
@API(status = INTERNAL, since = "0.1.0")
public record Redaction(List<String> allow, Path baseline, Path gitleaksConfig) {

    public static final Redaction NONE = new Redaction(List.of(), null);

    public Redaction {
        allow = List.copyOf(allow);
    }

    /** Without team rules. */
    public Redaction(List<String> allow, Path baseline) {
        this(allow, baseline, null);
    }

    /** The same, with the team's rules in {@code file}. */
    public Redaction withGitleaksConfig(Path file) {
        return new Redaction(allow, baseline, file);
    }
}
