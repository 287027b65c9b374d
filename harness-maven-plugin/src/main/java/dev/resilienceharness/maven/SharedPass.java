package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.incremental.PassDigest;
import dev.resilienceharness.pipeline.CheckPass;
import dev.resilienceharness.pipeline.CheckRun;
import dev.resilienceharness.run.RunError;
import java.nio.file.Path;

/**
 * The check's pass shared by the goals of one build: {@code report} and {@code check} make one pass, and the first
 * keeps its result on the project for the other.
 */
final class SharedPass {

    private SharedPass() {
    }

    /** The pass with every scenario's full report, as {@code report} writes them. */
    static CheckPass.Result run(AbstractScenarioMojo mojo, HarnessConfig config, boolean failOnOrphans)
            throws RunError {
        return run(mojo, config, failOnOrphans, false, null);
    }

    /**
     * The pass ({@link CheckPass#run}), handing it {@code digest} (may be {@code null}) to take as it reads; a pass
     * reused from earlier in the build hands it nothing.
     */
    static CheckPass.Result run(AbstractScenarioMojo mojo, HarnessConfig config, boolean failOnOrphans,
            boolean verdictOnly, PassDigest digest) throws RunError {
        // A pass kept for the verdict only cannot make a report, so a report after it makes its own.
        CheckPass.Result earlier = earlier(mojo, config.file(), failOnOrphans, verdictOnly);
        if (earlier != null) {
            mojo.getLog().info("Reusing this build's earlier pass over " + config.file().getFileName());
            return earlier;
        }
        CheckPass.Result result = CheckPass.run(mojo.runner(), config, failOnOrphans, verdictOnly, null, digest);
        mojo.project.setContextValue(key(mojo, config.file(), failOnOrphans, verdictOnly), result);
        return result;
    }

    /** The pass {@code check} delivers only the verdict of, shared with the goals after it in the build. */
    static CheckRun.Pass forVerdict(AbstractScenarioMojo mojo, boolean failOnOrphans) {
        return (config, digest) -> run(mojo, config, failOnOrphans, true, digest);
    }

    /** Whether an earlier goal of this build has made the pass {@link #run} would deliver to {@code check}. */
    static boolean ranEarlier(AbstractScenarioMojo mojo, Path yaml, boolean failOnOrphans) {
        return earlier(mojo, yaml, failOnOrphans, true) != null;
    }

    private static CheckPass.Result earlier(AbstractScenarioMojo mojo, Path yaml, boolean failOnOrphans,
            boolean verdictOnly) {
        if (mojo.project.getContextValue(key(mojo, yaml, failOnOrphans, false)) instanceof CheckPass.Result full) {
            return full;
        }
        return verdictOnly && mojo.project.getContextValue(key(mojo, yaml, failOnOrphans, true))
                instanceof CheckPass.Result r ? r : null;
    }

    private static String key(AbstractScenarioMojo mojo, Path yaml, boolean failOnOrphans, boolean verdictOnly) {
        return "dev.resilienceharness.check:" + yaml + ":" + failOnOrphans + ":" + mojo.runs
                + (verdictOnly ? ":verdict" : "");
    }
}
