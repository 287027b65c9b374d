package dev.resilienceharness.bench;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.secrets.Allowlist;
import dev.resilienceharness.secrets.GitleaksRules;
import dev.resilienceharness.secrets.MalformedJsonException;
import dev.resilienceharness.secrets.SecretScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

/**
 * Scanning cassettes for secrets, reported as MB/s. {@code perCore} scans the corpus's bytes, already in memory,
 * on one thread; {@code goal} is invariant 7 as the goals run it ({@link SecretsInCassettes#scan}: files read
 * from disk and scanned on all cores); {@code perCoreWithTeamRules} is {@code perCore} with a team's
 * {@code .gitleaks.toml} of three rules beside the built-in ones ({@code [extend] useDefault = true}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class SecretScanBenchmark {

    @Param("target/corpus")
    public String corpus;

    private HarnessConfig config;
    private List<Path> files;
    private List<byte[]> contents;
    private long bytes;
    private final SecretScanner scanner = new SecretScanner();
    private SecretScanner withTeamRules;

    /** Three rules of the kinds teams write: a keyword-gated token format, a generic assignment, a path rule. */
    private static final String TEAM_RULES = """
            [extend]
            useDefault = true

            [[rules]]
            id = "acme-internal-token"
            regex = '''acme_(?:live|test)_([a-z0-9]{24})'''
            keywords = ["acme_"]

            [[rules]]
            id = "acme-service-password"
            regex = '''(?i)service[_-]?password\\s*[:=]\\s*["']?([A-Za-z0-9!@#$%^&*]{12,})'''
            secretGroup = 1
            entropy = 3.0
            keywords = ["password"]

            [[rules]]
            id = "acme-session"
            regex = '''sess_[A-Za-z0-9]{32}'''
            path = '''\\.json$'''
            """;

    @Setup
    public void prepare() throws IOException {
        config = BenchCorpus.config(corpus);
        files = BenchCorpus.cassetteFiles(config);
        contents = new ArrayList<>(files.size());
        for (Path f : files) {
            contents.add(Files.readAllBytes(f));
        }
        bytes = BenchCorpus.bytes(files);
        Path rules = Files.createTempFile("gitleaks", ".toml");
        Files.writeString(rules, TEAM_RULES);
        withTeamRules = new SecretScanner(Allowlist.NONE, GitleaksRules.read(rules));
        Files.delete(rules);
    }

    @Benchmark
    public int perCore(Megabytes mb) throws MalformedJsonException {
        int findings = 0;
        for (int i = 0; i < contents.size(); i++) {
            findings += scanner.scan(files.get(i), contents.get(i)).size();
        }
        mb.add(bytes);
        return findings;
    }

    @Benchmark
    public int perCoreWithTeamRules(Megabytes mb) throws MalformedJsonException {
        int findings = 0;
        for (int i = 0; i < contents.size(); i++) {
            findings += withTeamRules.scan(files.get(i), contents.get(i)).size();
        }
        mb.add(bytes);
        return findings;
    }

    @Benchmark
    public SecretsInCassettes.Report goal(Megabytes mb) throws IOException {
        SecretsInCassettes.Report report = SecretsInCassettes.scan(config);
        mb.add(bytes);
        return report;
    }
}
