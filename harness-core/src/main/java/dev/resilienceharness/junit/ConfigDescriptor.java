package dev.resilienceharness.junit;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.HarnessConfig;
import java.nio.file.Path;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.FileSource;

/** One {@code resilience.yaml}: holds its scenarios, or the error that kept it from loading. */
final class ConfigDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "config";

    private final Path file;
    private final HarnessConfig config;
    private final ConfigException error;

    ConfigDescriptor(UniqueId id, Path file, HarnessConfig config, ConfigException error) {
        super(id, file.toString(), FileSource.from(file.toFile()));
        this.file = file;
        this.config = config;
        this.error = error;
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
