package dev.resilienceharness.maven;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.live.MissingApiKey;
import dev.resilienceharness.proxy.ReplayProxy;
import dev.resilienceharness.proxy.ServeOptions;
import java.io.File;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import tools.jackson.databind.node.ObjectNode;

/**
 * Serves a loopback provider endpoint (OpenAI Chat Completions and Responses, Anthropic Messages) until Ctrl-C, for
 * loops written with any client or language: replays cassettes (with a scenario's faults as real HTTP), or records
 * through to the provider. Logs each request; on stop, writes the report of the runs served, checked for call
 * budget and waiting.
 */
@Mojo(name = "serve", threadSafe = true)
public class ServeMojo extends AbstractResilienceMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.serve.skip", defaultValue = "false")
    private boolean skipGoal;

    /** The port on 127.0.0.1 to listen on; 0 picks a free one. */
    @Parameter(property = "resilience.port", defaultValue = "8089")
    private int port;

    /**
     * {@code replay} answers from cassettes only; {@code record-missing} forwards requests without a cassette to
     * the provider and writes them; {@code record} forwards and rewrites every one.
     */
    @Parameter(property = "resilience.mode", defaultValue = "replay")
    private String mode;

    /** The scenario whose fault plan is applied in replay mode, one entry per request; none by default. */
    @Parameter(property = "resilience.scenario")
    private String scenario;

    /** Multiplies every injected or recorded delay: 1 waits as declared, 0.1 ten times faster, 0 not at all. */
    @Parameter(property = "resilience.timeFactor", defaultValue = "1.0")
    private double timeFactor;

    /**
     * The request timeout of the MCP clients pointed at {@code /mcp/<server>}: an MCP {@code timeout} or {@code hang}
     * runs it out on the run's clock, and the request is held open that long, times the time factor. 20s is the MCP
     * Java SDK's (and Spring AI's); set 60s for langchain4j-mcp's {@code toolExecutionTimeout}.
     */
    @Parameter(property = "resilience.mcpClientTimeout", defaultValue = "20s")
    private String mcpClientTimeout;

    @Override
    protected String goal() {
        return "serve";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected boolean keepsServeOnlyScenarios() {
        return true;
    }

    @Override
    protected void run(HarnessConfig config) throws MojoExecutionException {
        Mode m = Mode.fromUser(mode);
        if (m == null) {
            throw new MojoExecutionException(ServeOptions.modeError(mode));
        }
        ReplayProxy proxy;
        try {
            ServeOptions options = new ServeOptions(config.file(), m, port, scenario, timeFactor,
                    outputDirectory.toPath(), ServeOptions.mcpClientTimeout(mcpClientTimeout));
            // Volatile fields are stripped by the cassette store; secret masking plugs in as the redaction.
            proxy = ReplayProxy.forOptions(config, options, System::getenv, RecordingRedaction.forConfig(config),
                    getLog()::info);
            proxy.start();
        } catch (IllegalArgumentException | MissingApiKey e) {
            throw new MojoExecutionException(e.getMessage());
        } catch (IOException e) {
            throw new MojoExecutionException("cannot listen on 127.0.0.1:" + port + ": " + e.getMessage()
                    + ". Choose another port with -Dresilience.port");
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            stopped.countDown();
        }, "resilience-serve-shutdown"));
        getLog().info("Serving " + m.userName() + " on " + proxy.baseUrl() + (scenario == null ? ""
                : " with the faults of scenario '" + scenario + "'") + ". Point your OpenAI or Anthropic client's"
                + " base URL here; POST /_harness/reset?scenario=NAME starts a fresh run of a scenario's faults;"
                + " Ctrl-C stops and writes " + new File(outputDirectory, "report.json"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            proxy.close();
        }
    }
}
