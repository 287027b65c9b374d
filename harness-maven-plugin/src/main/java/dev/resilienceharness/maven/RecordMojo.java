package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.pipeline.RecordRun;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunException;
import java.util.List;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Sends every scenario op's request, exactly as declared, to {@code provider.base_url} and writes its cassette,
 * volatile fields stripped and secrets redacted before anything touches disk. The key is read from the
 * environment variable {@code provider.api_key_env} names and never written. Run on demand:
 * {@code mvn resilience:record}. With a team's loop ({@code loop: com.acme.MyLoop}) it runs each scenario once with
 * no faults on the project's test classpath, and records every request the loop's SDK sends that no cassette
 * answers, labelled with the op it was made for.
 */
@Mojo(name = "record", threadSafe = true, requiresDependencyResolution = ResolutionScope.TEST)
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

    /**
     * Sends each request this many times and keeps every send's timing in its cassette ({@code timing.samples}),
     * for the fault {@code {latency: recorded}} to draw from; the first answer is the one recorded.
     */
    @Parameter(property = "resilience.record.samples", defaultValue = "1")
    private String samples;

    /**
     * Records through this loop instead of the yaml's {@code loop:}: {@code builtin} or the binary class name of a
     * loop on the project's test classpath, such as {@code com.acme.agent.MyLoop}, as in every goal that runs
     * scenarios.
     */
    @Parameter(property = "resilience.loop")
    private String loop;

    @Override
    protected String loopOverride() {
        return loop;
    }

    @Override
    protected String goal() {
        return "record";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected void run(HarnessConfig config) throws RunException {
        RecordRun.run(log(), config, mode, samples, this::testClasspath);
    }

    /** The project's test classpath, on which the team's loop is. */
    private List<String> testClasspath() throws RunError {
        try {
            return project.getTestClasspathElements();
        } catch (DependencyResolutionRequiredException e) {
            throw new RunError("the project's test classpath is not resolved: " + e.getMessage(), e);
        }
    }
}
