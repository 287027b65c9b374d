package dev.resilienceharness.maven;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.live.LiveMessages;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.MissingApiKey;
import dev.resilienceharness.live.RecordSummary;
import dev.resilienceharness.live.Recorder;
import java.util.function.UnaryOperator;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sends every scenario op's request, exactly as declared, to {@code provider.base_url} and writes its cassette,
 * volatile fields stripped and secrets redacted before anything touches disk. The key is read from the
 * environment variable {@code provider.api_key_env} names and never written. Run on demand:
 * {@code mvn resilience:record}.
 */
@Mojo(name = "record", threadSafe = true)
public class RecordMojo extends AbstractResilienceMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.record.skip", defaultValue = "false")
    private boolean skipGoal;

    /**
     * {@code record-missing} sends only the requests that have no cassette yet; {@code record} sends every request
     * again and rewrites its cassette.
     */
    @Parameter(property = "resilience.mode", defaultValue = "record-missing")
    private String mode;

    @Override
    protected String goal() {
        return "record";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected void run(HarnessConfig config) throws MojoExecutionException, MojoFailureException {
        Mode m = Mode.fromUser(mode);
        if (m == null || m == Mode.REPLAY) {
            throw new MojoExecutionException("resilience.mode must be record-missing or record for resilience:record,"
                    + " was '" + mode + "'");
        }
        if (config.scenarios().isEmpty()) {
            getLog().warn(ScenarioScope.noScenarios(config, goal()));
            return;
        }
        if (config.provider() == null) {
            throw new MojoExecutionException(config.file() + ": " + LiveMessages.NO_PROVIDER);
        }
        LiveTransport live;
        try {
            live = LiveTransport.connect(config.provider(), System::getenv);
        } catch (MissingApiKey e) {
            throw new MojoExecutionException(e.getMessage());
        }
        getLog().info("Recording " + Recorder.ops(config).size() + " ops (" + m.userName() + ") from "
                + live.endpoint() + " into " + config.cassettes());
        RecordSummary summary = new Recorder(config, m, live, redaction(config)).record();
        for (RecordSummary.Entry e : summary.entries()) {
            if (e.result() == RecordSummary.Result.FAILED) {
                getLog().error(e.line());
            } else {
                getLog().info(e.line());
            }
        }
        getLog().info(summary.total());
        if (!summary.failures().isEmpty()) {
            throw new MojoFailureException("resilience:record: " + summary.failures().size() + " of "
                    + summary.entries().size() + " ops could not be recorded; see the lines above");
        }
    }

    /** Volatile fields are stripped by the cassette store; secrets are masked here, failing closed. */
    private static UnaryOperator<ObjectNode> redaction(HarnessConfig config) {
        return RecordingRedaction.forConfig(config);
    }
}
