package dev.resilienceharness.junit;

import dev.resilienceharness.config.Scenario;
import java.nio.file.Path;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;

/** One scenario: a container of one test per invariant. */
final class ScenarioDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "scenario";

    private final Scenario scenario;

    ScenarioDescriptor(UniqueId id, Path file, Scenario scenario) {
        super(id, scenario.name(), scenario.line() > 0
                ? FileSource.from(file.toFile(), FilePosition.from(scenario.line()))
                : FileSource.from(file.toFile()));
        this.scenario = scenario;
    }

    Scenario scenario() {
        return scenario;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }
}
