package dev.resilienceharness.bench;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The generated corpus a benchmark runs on: its config and its cassette files. */
final class BenchCorpus {

    private BenchCorpus() {
    }

    /** Loads {@code folder}/resilience.yaml, saying how to make the corpus when it is not there. */
    static HarnessConfig config(String folder) {
        Path yaml = Path.of(folder).resolve("resilience.yaml");
        if (!Files.isRegularFile(yaml)) {
            throw new IllegalStateException(yaml.toAbsolutePath() + " does not exist; generate it with"
                    + " java -cp bench/target/benchmarks.jar dev.resilienceharness.bench.CorpusGenerator " + folder
                    + " (bench/run.sh does), or pass -p corpus=<folder>");
        }
        try {
            return ConfigLoader.load(yaml);
        } catch (ConfigException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Every cassette file of {@code config}, sorted. */
    static List<Path> cassetteFiles(HarnessConfig config) {
        try (Stream<Path> files = Files.list(config.cassettes())) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The total size of {@code files} in bytes. */
    static long bytes(List<Path> files) {
        long sum = 0;
        for (Path p : files) {
            try {
                sum += Files.size(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sum;
    }
}
