package dev.resilienceharness.bench;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Loading and verifying every cassette of the corpus on two threads, reported as MB/s of cassette files.
 * {@code verify} is invariant 6 as the goals run it ({@link CassetteIntegrity#check}: every file read, parsed,
 * canonicalised, fingerprinted and compared with its name, volatile fields looked for, every op's cassette
 * found); {@code load} only reads, parses and fingerprints each file with a {@link CassetteReader}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Djava.util.concurrent.ForkJoinPool.common.parallelism=1"})
public class CassetteLoadBenchmark {

    /** Both cores: the common pool's one worker plus the calling thread, or a pool of two. */
    static final int THREADS = 2;

    @Param("target/corpus")
    public String corpus;

    private HarnessConfig config;
    private List<Path> files;
    private long bytes;
    private CassetteReader reader;
    private ForkJoinPool pool;

    @Setup
    public void prepare() {
        config = BenchCorpus.config(corpus);
        files = BenchCorpus.cassetteFiles(config);
        bytes = BenchCorpus.bytes(files);
        reader = new CassetteReader(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        pool = new ForkJoinPool(THREADS);
    }

    @TearDown
    public void close() {
        pool.shutdown();
    }

    @Benchmark
    public CassetteIntegrity.Report verify(Megabytes mb) throws IOException {
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, false);
        if (!report.violations().isEmpty() || report.checked() != files.size()) {
            throw new IllegalStateException("the corpus does not verify: " + report.violations());
        }
        mb.add(bytes);
        return report;
    }

    @Benchmark
    public long load(Megabytes mb) throws InterruptedException, ExecutionException {
        long fingerprints = pool.submit(() -> files.parallelStream().mapToLong(f -> {
            try {
                return reader.read(f).fingerprint().charAt(0);
            } catch (CassetteException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }).sum()).get();
        mb.add(bytes);
        return fingerprints;
    }
}
