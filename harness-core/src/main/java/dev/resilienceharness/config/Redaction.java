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
 */
@API(status = INTERNAL, since = "0.1.0")
public record Redaction(List<String> allow, Path baseline) {

    public static final Redaction NONE = new Redaction(List.of(), null);

    public Redaction {
        allow = List.copyOf(allow);
    }
}
