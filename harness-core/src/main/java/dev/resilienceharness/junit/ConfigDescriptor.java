package dev.resilienceharness.junit;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.HarnessConfig;
import java.nio.file.Path;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;

/**
 * One {@code resilience.yaml}: holds its scenarios, or the error that kept it from loading.
 *
 * <p>Its source is the class {@link ResilienceScenarios}, not the file: surefire's JUnit Platform provider only
 * opens a test set for a container whose source is a class, and counts and reports a test only inside the test
 * set of its topmost such container. A config with a file source left all its tests out of {@code Tests run}
 * and out of {@code target/surefire-reports}. The scenarios below keep their file and line as source.
 */
final class ConfigDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "config";

    private final Path file;
    private final HarnessConfig config;
    private final ConfigException error;
    private final boolean implicit;

    ConfigDescriptor(UniqueId id, Path file, HarnessConfig config, ConfigException error, boolean implicit) {
        super(id, file.toString(), ClassSource.from(ResilienceScenarios.class));
        this.file = file;
        this.config = config;
        this.error = error;
        this.implicit = implicit;
    }

    Path file() {
        return file;
    }

    /** The loaded config, or {@code null} when it failed to load. */
    HarnessConfig config() {
        return config;
    }

    ConfigException error() {
        return error;
    }

    /**
     * Whether the file was found rather than asked for: discovered for a class, package or classpath root
     * selector, not selected as a file, by unique id or through {@link ResilienceScenarios}.
     */
    boolean implicit() {
        return implicit;
    }

    /** Keeps a config that failed to load in the tree (and so in the results), although it holds no test. */
    @Override
    public boolean mayRegisterTests() {
        return error != null;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }
}
