package dev.resilienceharness.maven;

import dev.resilienceharness.run.RunLog;
import org.apache.maven.plugin.logging.Log;

/** Maven's log as the engine's. */
record MavenRunLog(Log log) implements RunLog {

    @Override
    public boolean isDebugEnabled() {
        return log.isDebugEnabled();
    }

    @Override
    public void debug(String line) {
        log.debug(line);
    }

    @Override
    public void info(String line) {
        log.info(line);
    }

    @Override
    public void warn(String line) {
        log.warn(line);
    }

    @Override
    public void error(String line) {
        log.error(line);
    }
}
