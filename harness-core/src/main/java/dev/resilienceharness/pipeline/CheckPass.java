package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.incremental.PassDigest;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.run.PhaseTime;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.scenario.BlockedScenarios;
import dev.resilienceharness.scenario.KeptAnswers;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.shard.NeededCassettes;
import dev.resilienceharness.shard.Shard;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/** The one pass behind {@code check} and {@code report}: cassettes, then scenarios, then secrets. */
@API(status = INTERNAL, since = "0.1.0")
public final class CheckPass {

    /**
     * Everything one pass found.
     *
     * @param cassettes the cassette integrity report
     * @param scenarios one report per scenario run; those blocked by a cassette violation are named among the
     *                  cassette warnings
     * @param secrets   the secret scan
     */
    public record Result(CassetteIntegrity.Report cassettes, List<ScenarioReport> scenarios,
            SecretsInCassettes.Report secrets) {

        /** Every warning the pass logged, in order. */
        public List<String> warnings() {
            return cassettes.warnings();
        }

        /** Every violation: cassettes, then scenarios, then secrets. */
        public List<Violation> violations() {
            List<Violation> all = new ArrayList<>(cassettes.violations());
            scenarios.forEach(s -> all.addAll(s.violations()));
            all.addAll(secrets.violations());
            return all;
        }
    }

    /** The warning when cassette violations keep every scenario from running. */
    public static final String SCENARIOS_NOT_RUN = "Scenarios were not run because of the cassette violations below;"
            + " fix them first";

    private CheckPass() {
    }

    /**
     * The pass itself, remembered nowhere (a goal may share it with the next one of the same build), with the cassette
     * folder's listing already under way ({@link CassetteStore#listingAhead} of {@code config.cassettes()}), or
     * {@code null} to list it here; handing {@code digest} (may be {@code null}) the listing and what each file read
     * holds. With {@code verdictOnly} (the {@code check} goal, which delivers only violations and counts) each
     * scenario's report is kept without its outcomes, which hold the recorded answers, so that the heap does not grow
     * with the corpus.
     */
    public static Result run(ScenarioRunner runner, HarnessConfig config, boolean failOnOrphans, boolean verdictOnly,
            Future<CassetteStore.Listing> listedAhead, PassDigest digest) throws RunError {
        RunLog log = runner.log();
        // The secret scan reads nothing itself: the integrity pass hands it every file it reads and the tree it parsed.
        SecretsInCassettes.Scan secrets = SecretsPass.start(config);
        Shard shard = runner.part();
        // Nor do the runs read again what it has parsed, as far as it fits.
        KeptAnswers kept = new KeptAnswers(KeptAnswers.DEFAULT_BYTES);
        CassetteIntegrity.Report cassettes;
        PhaseTime pass = PhaseTime.start(log);
        try {
            boolean orphans = ScenarioScope.looksForOrphans(config);
            CassetteIntegrity.FileRead scan = (file, bytes, parsed) -> secrets.file(file, bytes, parsed);
            cassettes = CassetteIntegrity.check(config, failOnOrphans && orphans, scan, shard::ownsFile, kept::offer,
                    listedAhead, digest);
            SecretsPass.logShard(log, config, shard);
            if (!orphans) {
                log.info(ScenarioScope.cassettesOnTheirOwn(config));
                cassettes = new CassetteIntegrity.Report(cassettes.checked(), cassettes.violations(),
                        ScenarioScope.withoutOrphans(cassettes.warnings()), cassettes.fingerprints());
            }
        } catch (IOException e) {
            throw new RunError(config.cassettes() + ": cannot list the cassette folder: "
                    + e.getMessage(), e);
        }
        log.debug(pass.done("Read, checked and scanned " + cassettes.checked() + " cassettes"));
        cassettes.warnings().forEach(log::warn);
        log.info("Checked " + cassettes.checked() + " cassettes in " + config.cassettes());
        List<ScenarioReport> scenarios = List.of();
        HarnessConfig toRun = config.scenarios().isEmpty() ? config : runner.shardOf(config);
        List<Violation> blocking = new ArrayList<>(cassettes.violations());
        try {
            blocking.addAll(NeededCassettes.ofOtherShards(toRun, shard, cassettes.fingerprints(), digest));
        } catch (IOException e) {
            throw new RunError(config.cassettes() + ": cannot list the cassette folder: "
                    + e.getMessage(), e);
        }
        if (!blocking.isEmpty()) {
            // A scenario that needs a file with a violation would only add noise; every other one runs.
            BlockedScenarios.Split split = BlockedScenarios.split(toRun, blocking);
            List<String> warnings = new ArrayList<>(cassettes.warnings());
            warnings.addAll(split.blocked());
            toRun = split.runnable();
            if (toRun.scenarios().isEmpty() && !split.blocked().isEmpty() && shard.whole()) {
                warnings.add(SCENARIOS_NOT_RUN);
                toRun = null;
            }
            warnings.subList(cassettes.warnings().size(), warnings.size()).forEach(log::warn);
            cassettes = new CassetteIntegrity.Report(cassettes.checked(), cassettes.violations(), warnings,
                    cassettes.fingerprints());
        }
        if (toRun != null && (config.scenarios().isEmpty() || !toRun.scenarios().isEmpty())) {
            // Every op's cassette of these scenarios was just found and read: the runs read each one when they need it.
            PhaseTime running = PhaseTime.start(log);
            scenarios = runner.run(toRun, Rehearsal.runInvariants(config), cassettes.fingerprints(), kept,
                    verdictOnly ? ScenarioReport::withoutOutcomes : UnaryOperator.identity());
            int ran = scenarios.size();
            log.debug(running.done("Ran " + ran + (ran == 1 ? " scenario" : " scenarios")));
        }
        // An unreadable file is reported once, under cassettes.
        return new Result(cassettes, scenarios, SecretsPass.logged(log,
                secrets.report(cassettes.checked(), false)));
    }
}
