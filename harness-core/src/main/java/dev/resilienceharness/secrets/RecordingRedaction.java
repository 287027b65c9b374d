package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * The last step before a recorded cassette touches disk: credential headers dropped, every secret replaced by
 * {@code [REDACTED:<rule>:<hash8>]}, and a re-scan that must find nothing. When something remains the write is
 * refused (fail closed): the recorder reports the op as failed and writes no file.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class RecordingRedaction implements UnaryOperator<ObjectNode> {

    private final Redactor redactor;

    /**
     * Redacts with {@code config}'s {@code redaction.allow} list and the team's gitleaks rules, the same ones the
     * scan of the cassettes runs ({@code secrets.gitleaks_config}, or the {@code .gitleaks.toml} beside the yaml).
     *
     * @throws UncheckedIOException naming the file when the team's rules cannot be read or used
     */
    public static RecordingRedaction forConfig(HarnessConfig config) {
        Path file = config.redaction().gitleaksConfig();
        GitleaksRules rules;
        try {
            rules = file == null ? GitleaksRules.NONE : GitleaksRules.read(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
        return new RecordingRedaction(new Redactor(Allowlist.of(config.redaction().allow()), rules));
    }

    RecordingRedaction(Redactor redactor) {
        this.redactor = redactor;
    }

    /** @throws Refused when a secret survives redaction; nothing may then be written */
    @Override
    public ObjectNode apply(ObjectNode cassette) {
        try {
            return redactor.redact(cassette);
        } catch (RedactionFailedException e) {
            throw new Refused(e.getMessage());
        }
    }

    /** Redaction could not make a cassette clean, so it is not written. The message shows masked values only. */
    public static final class Refused extends RuntimeException {
        Refused(String message) {
            super("refusing to write the cassette: " + message, null, false, false);
        }
    }
}
