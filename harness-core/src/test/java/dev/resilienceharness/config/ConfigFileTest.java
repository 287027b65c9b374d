package dev.resilienceharness.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.resilienceharness.files.BoundedFileTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigFileTest {

    @TempDir
    Path dir;

    private String fails(Path file, boolean named, boolean aggregator) {
        return assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(ConfigException.class,
                () -> ConfigFile.check(file, named, aggregator))).getMessage();
    }

    @Test
    void a_regular_file_is_read_and_an_aggregator_without_the_default_file_is_skipped() throws Exception {
        Path yaml = Files.writeString(dir.resolve("resilience.yaml"), "version: 1\n");
        assertEquals(ConfigFile.Verdict.READ, ConfigFile.check(yaml, false, false));
        assertEquals(ConfigFile.Verdict.READ, ConfigFile.check(yaml, true, true));
        assertEquals(ConfigFile.Verdict.SKIP, ConfigFile.check(dir.resolve("none.yaml"), false, true));
    }

    @Test
    void a_missing_default_file_fails_a_module_that_is_no_aggregator() {
        Path none = dir.resolve("resilience.yaml");
        assertEquals(none + ": no such file. Create a resilience.yaml (see the README) or point -Dresilience.config"
                + " at yours", fails(none, false, false));
    }

    @Test
    void a_named_file_that_is_missing_fails_even_an_aggregator() {
        Path typo = dir.resolve("resilence.yaml");
        String expected = typo + ": no such file, and it is the config this build names (resilience.config or"
                + " <config>): the goal would check nothing. Fix the name, or create the file";
        assertEquals(expected, fails(typo, true, true));
        assertEquals(expected, fails(typo, true, false));
    }

    @Test
    void a_folder_a_pipe_a_dangling_link_or_a_loop_fails_named_or_not() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("folder.yaml"));
        assertEquals(folder + ": is a folder, not a file, where the config must be a regular file; point"
                + " resilience.config at your resilience.yaml", fails(folder, false, true));
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.yaml"), dir.resolve("gone.yaml"));
        assertEquals(dangling + ": is a symbolic link to a file that does not exist, where the config must be a"
                + " regular file; point resilience.config at your resilience.yaml", fails(dangling, false, true));
        Path a = dir.resolve("a.yaml");
        Files.createSymbolicLink(a, dir.resolve("b.yaml"));
        Files.createSymbolicLink(dir.resolve("b.yaml"), a);
        assertEquals(a + ": is a symbolic link that leads round in a loop, where the config must be a regular file;"
                + " point resilience.config at your resilience.yaml", fails(a, true, true));
        Path fifo = dir.resolve("fifo.yaml");
        assumeTrue(BoundedFileTest.mkfifo(fifo), "mkfifo is not available");
        assertEquals(fifo + ": is a named pipe (fifo), not a regular file; it was not opened, where the config must"
                + " be a regular file; point resilience.config at your resilience.yaml", fails(fifo, false, true));
    }

    @Test
    void an_output_directory_in_the_cassette_folder_is_refused() throws Exception {
        Path cassettes = Files.createDirectories(dir.resolve("cassettes"));
        assertEquals(cassettes + ": the output directory is inside the cassette folder " + cassettes + ", where"
                + " reports would mix with the cassettes; point resilience.outputDirectory elsewhere (the default is"
                + " target/resilience)", ConfigFile.outputProblem(cassettes, cassettes));
        assertEquals(true, ConfigFile.outputProblem(cassettes, cassettes.resolve("out/x")) != null);
        Path link = Files.createSymbolicLink(dir.resolve("out"), cassettes);
        assertEquals(true, ConfigFile.outputProblem(cassettes, link.resolve("reports")) != null);
        assertEquals(null, ConfigFile.outputProblem(cassettes, dir.resolve("target/resilience")));
        assertEquals(null, ConfigFile.outputProblem(cassettes, dir.resolve("cassettes-report")));
    }

    @Test
    void a_cassettes_key_naming_no_folder_is_one_error_at_its_line() throws Exception {
        Path yaml = Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: nowhere
                policy: {max_total_wait: 1s}
                scenarios:
                  - name: s
                    ops: [plan, patch]
                """);
        HarnessConfig config = ConfigLoader.load(yaml);
        assertEquals(yaml + ":2:12: cassettes: the cassette folder " + dir.resolve("nowhere") + " does not exist, so"
                + " no op has a cassette; fix the path, or run mvn resilience:record to record into it",
                ConfigFile.cassettesNowhere(config));
        Files.createDirectories(dir.resolve("nowhere"));
        assertEquals(null, ConfigFile.cassettesNowhere(config));
        Path byDefault = Files.writeString(dir.resolve("default.yaml"), "version: 1\npolicy: {max_total_wait: 1s}\n");
        assertEquals(null, ConfigFile.cassettesNowhere(ConfigLoader.load(byDefault)));
    }

    @Test
    void an_output_directory_in_the_folder_a_yaml_names_is_refused_before_the_yaml_is_loaded() throws Exception {
        Path yaml = Files.writeString(dir.resolve("resilience.yaml"), "version: 1\ncassettes: recorded\n");
        Path recorded = dir.resolve("recorded");
        assertEquals(recorded + ": the output directory is inside the cassette folder " + recorded + ", where reports"
                + " would mix with the cassettes; point resilience.outputDirectory elsewhere (the default is"
                + " target/resilience)", ConfigFile.outputProblem(yaml, recorded, dir.resolve("target")));
        assertEquals(null, ConfigFile.outputProblem(yaml, dir.resolve("cassettes"), dir.resolve("target")));
        assertEquals(null, ConfigFile.outputProblem(yaml, dir.resolve("target/resilience"), dir.resolve("target")));
        Path byDefault = Files.writeString(dir.resolve("default.yaml"), "version: 1\n");
        assertEquals(true, ConfigFile.outputProblem(byDefault, dir.resolve("cassettes/out"), null) != null);
    }
}
