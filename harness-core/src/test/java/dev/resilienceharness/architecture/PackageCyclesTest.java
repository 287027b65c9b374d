package dev.resilienceharness.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The engine's packages never import each other in a circle (the run trace sits below both invariant and scenario). */
class PackageCyclesTest {

    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.resilienceharness");

    @Test
    void corePackagesAreFreeOfCycles() {
        slices().matching("dev.resilienceharness.(*)..").should().beFreeOfCycles().check(CORE);
    }
}
