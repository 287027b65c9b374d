package dev.resilienceharness.shard;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.report.SecretFindingRow;
import dev.resilienceharness.scenario.BlockedScenarios;
import dev.resilienceharness.scenario.Rehearsal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;

/**
 * The check pass as the goals make it, for one shard: cassettes of the shard's files (secrets scanned on the way),
 * scenarios of the shard held back by the cassettes they need, then the runs; and its outputs written to a folder.
 */
final class ShardedRun {

    private ShardedRun() {
    }

    /** The test corpus with violations of every kind, copied to {@code dir} so tests may change it. */
    static Path corpus(Path dir) throws Exception {
        Path source = Path.of(ShardedRun.class.getResource("/corpora/sharded/resilience.yaml").toURI()).getParent();
        Files.createDirectories(dir.resolve("cassettes"));
        Files.copy(source.resolve("resilience.yaml"), dir.resolve("resilience.yaml"));
        try (Stream<Path> files = Files.list(source.resolve("cassettes"))) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve("cassettes").resolve(f.getFileName()));
            }
        }
        return dir.resolve("resilience.yaml");
    }

    /** What {@code shard} of the check of {@code config} finds. */
    static RunReport check(HarnessConfig config, Shard shard) throws Exception {
        SecretsInCassettes.Scan secrets = SecretsInCassettes.start(config);
        CassetteIntegrity.Report cassettes = CassetteIntegrity.check(config, false, secrets::file, shard::ownsFile);
        HarnessConfig mine = shard.scenariosOf(config);
        List<Violation> blocking = new ArrayList<>(cassettes.violations());
        blocking.addAll(NeededCassettes.ofOtherShards(mine, shard, cassettes.fingerprints()));
        BlockedScenarios.Split split = BlockedScenarios.split(mine, blocking);
        Rehearsal rehearsal = Rehearsal.prepare(split.runnable(), LoopFactory.builtin());
        List<ScenarioReport> scenarios = new ArrayList<>();
        for (Scenario s : split.runnable().scenarios()) {
            scenarios.add(ScenarioReport.of(rehearsal.check(s, 2, Rehearsal.RUN_INVARIANTS)));
        }
        List<String> warnings = new ArrayList<>(cassettes.warnings());
        warnings.addAll(split.blocked());
        SecretsInCassettes.Report found = secrets.report(cassettes.checked(), false);
        Path base = config.file().getParent();
        return RunReport.builder().scenarios(scenarios).cassettes(cassettes.checked(), cassettes.violations(), warnings)
                .secrets(found.files(), found.findings().stream().map(f -> SecretFindingRow.of(f, base)).toList())
                .build();
    }

    /** Runs {@code shard} of {@code config}'s check and writes its reports and marker into {@code out}. */
    static RunReport write(HarnessConfig config, Shard shard, Path out) throws Exception {
        String inputs = ShardInputs.digest(config, "runs=2");
        RunReport report = check(config, shard);
        ReportWriter.writeAll(report, EnumSet.allOf(Invariant.class), out);
        ShardMarker.of(shard, inputs, config.scenarios(), CassetteIntegrity.check(config, false).fingerprints(),
                config.cassettes()).write(out);
        return report;
    }

    static HarnessConfig load(Path yaml) throws Exception {
        return ConfigLoader.load(yaml);
    }
}
