package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.config.DidYouMean;
import dev.resilienceharness.config.Durations;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.explore.Counterexample;
import dev.resilienceharness.explore.Exploration;
import dev.resilienceharness.explore.ExplorationResult;
import dev.resilienceharness.explore.ExploreReport;
import dev.resilienceharness.explore.Explorer;
import dev.resilienceharness.explore.LimitSearch;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.SetupException;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.shard.ShardMessages;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The {@code explore} goal's work on a loaded config: which scenarios and limits to search, the search itself
 * ({@link Exploration}), and what it found, logged as scenarios to paste and written to {@code explore.json}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ExploreRun {

    /**
     * The goal's options, as the user wrote them.
     *
     * @param scenario        the one scenario to explore, or {@code null} (or blank) for every distinct one
     * @param timeLimit       a yaml duration, shared out over the scenarios
     * @param limits          the provider limits to search, comma-separated (may be {@code null})
     * @param stallTimeout    how long a run may make no call and no wait ({@code StallBound}), or {@code null}
     * @param yamlName        the yaml's file name, as the lines that say where to paste a case name it
     * @param outputDirectory where {@code explore.json} goes
     */
    public record Options(String scenario, long maxPlans, String timeLimit, long seed, String limits,
            String stallTimeout, boolean failOnViolation, Shard shard, String yamlName, Path outputDirectory) {
    }

    private ExploreRun() {
    }

    /** Explores {@code config}'s scenarios with the loop on {@code testClasspath}. */
    public static void run(RunLog log, Options options, HarnessConfig config,
            ScenarioRunner.TestClasspath testClasspath)
            throws RunError, RunFailure {
        if (config.scenarios().isEmpty()) {
            log.warn(ScenarioScope.noScenarios(config, "explore"));
            return;
        }
        List<Scenario> targets = targets(log, options.scenario(), config);
        if (!options.shard().whole()) {
            log.info(ShardMessages.plans(options.shard()));
        }
        Duration limit;
        try {
            limit = Durations.parse(options.timeLimit());
        } catch (IllegalArgumentException e) {
            throw new RunError("resilience.explore.timeLimit: " + e.getMessage());
        }
        if (options.maxPlans() < 0) {
            throw new RunError("resilience.explore.maxPlans is " + options.maxPlans() + "; give 0 or more");
        }
        Exploration.Settings settings = new Exploration.Settings(options.maxPlans(), limit, options.seed(),
                limitNames(options.limits()), options.shard()::ownsPlan);
        Duration stallBound = ScenarioRunner.stallBound(options.stallTimeout());
        Exploration.Outcome outcome;
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = ScenarioLauncher.projectLoader(testClasspath.get())) {
            thread.setContextClassLoader(loader);
            Rehearsal rehearsal = Rehearsal.forLoopOf(config, loader, null, null);
            rehearsal.stallBound(stallBound);
            outcome = Exploration.search(rehearsal, targets, settings);
        } catch (SetupException e) {
            throw new RunError(e.getMessage());
        } catch (IOException e) {
            throw new RunError("cannot close the project's test class loader: " + e.getMessage(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
        report(log, options, outcome);
    }

    private static List<String> limitNames(String limits) throws RunError {
        List<String> names = new ArrayList<>();
        for (String part : limits == null ? new String[0] : limits.split(",")) {
            String name = part.strip();
            if (name.isEmpty()) {
                continue;
            }
            if (!LimitSearch.LIMITS.contains(name)) {
                String near = DidYouMean.suggest(name, LimitSearch.LIMITS);
                throw new RunError("resilience.explore.limits: no limit '" + name + "' to search"
                        + (near != null ? "; did you mean '" + near + "'?" : "; give "
                                + String.join(" or ", LimitSearch.LIMITS)));
            }
            names.add(name);
        }
        return names;
    }

    private static List<Scenario> targets(RunLog log, String scenario, HarnessConfig config) throws RunError {
        if (scenario == null || scenario.isBlank()) {
            List<Scenario> distinct = Explorer.distinct(config.scenarios());
            if (distinct.size() < config.scenarios().size()) {
                log.info("Exploring " + distinct.size() + " of " + config.scenarios().size()
                        + " scenarios: the others have the same ops and policy as one of them");
            }
            return distinct;
        }
        List<String> names = config.scenarios().stream().map(Scenario::name).toList();
        String near = DidYouMean.suggest(scenario, names);
        return config.scenarios().stream().filter(s -> s.name().equals(scenario)).findFirst().map(List::of)
                .orElseThrow(() -> new RunError("resilience.explore.scenario: no scenario '" + scenario
                        + "' in " + config.file() + (near != null ? "; did you mean '" + near + "'?"
                                : "; it has " + String.join(", ", names))));
    }

    private static void report(RunLog log, Options options, Exploration.Outcome outcome) throws RunError, RunFailure {
        long plans = 0;
        int found = 0;
        for (LimitSearch.Finding f : outcome.limits()) {
            found++;
            violations(log, f.violations(), options.failOnViolation());
            log.info("The loop breaks with " + f.limit() + ": " + f.value() + " (" + f.tried()
                    + " values tried). Paste under scenarios: in " + options.yamlName() + " to keep this case:");
            f.yaml().lines().forEach(log::info);
        }
        for (ExplorationResult r : outcome.results()) {
            plans += r.plans();
            if (r.ended() == ExplorationResult.Ended.TIME_LIMIT) {
                log.info("Scenario " + r.scenario().name() + ": the time limit ended the search after "
                        + r.plans() + " plans; raise resilience.explore.timeLimit to search all maxPlans");
            }
            for (Counterexample c : r.counterexamples()) {
                found++;
                violations(log, c.violations(), options.failOnViolation());
                log.info("Paste under scenarios: in " + options.yamlName() + " to keep this case:");
                c.yaml().lines().forEach(log::info);
            }
        }
        Path json = options.outputDirectory().resolve("explore.json");
        try {
            AtomicFiles.write(json, (Json.prettyPrint(ExploreReport.json(outcome.results(), options.seed(),
                    outcome.limits())) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new RunError(json + ": cannot write the explore report: " + e.getMessage(), e);
        }
        String summary = "explored " + plans + " plans, found " + found
                + (found == 1 ? " counterexample" : " counterexamples") + " (seed " + options.seed() + "); see " + json;
        if (found > 0 && options.failOnViolation()) {
            throw new RunFailure("resilience:explore: " + summary);
        }
        log.info("resilience:explore: " + summary);
    }

    private static void violations(RunLog log, List<Violation> violations, boolean fail) {
        for (Violation v : violations) {
            if (fail) {
                log.error(v.line());
            } else {
                log.warn(v.line());
            }
        }
    }
}
