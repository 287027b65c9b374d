package dev.resilienceharness.maven;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.config.DidYouMean;
import dev.resilienceharness.config.Durations;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.explore.Counterexample;
import dev.resilienceharness.explore.ExplorationResult;
import dev.resilienceharness.explore.ExploreReport;
import dev.resilienceharness.explore.Explorer;
import dev.resilienceharness.explore.LimitSearch;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.pipeline.ScenarioLauncher;
import dev.resilienceharness.pipeline.ScenarioRunner;
import dev.resilienceharness.pipeline.ScenarioScope;
import dev.resilienceharness.run.RunException;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.StallBound;
import dev.resilienceharness.shard.ShardMessages;
import dev.resilienceharness.scenario.SetupException;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Searches fault plans for each scenario's ops and prints the smallest plan that breaks an invariant, as a scenario
 * to paste into {@code resilience.yaml}; writes {@code explore.json}. Reports only, unless failOnViolation is set.
 */
@Mojo(name = "explore", threadSafe = true, requiresDependencyResolution = ResolutionScope.TEST)
public class ExploreMojo extends AbstractResilienceMojo {

    /**
     * Runs the scenarios with this loop instead of the yaml's {@code loop:}: {@code builtin} or the binary class name
     * of a loop on the project's test classpath, such as {@code com.acme.agent.MyLoop}. One yaml then rehearses
     * several loops: {@code mvn verify -Dresilience.loop=com.acme.agent.OtherLoop}.
     */
    @Parameter(property = "resilience.loop")
    private String loop;

    @Override
    protected String loopOverride() {
        return loop;
    }

    /** As for the goals that check scenarios: how long a run may make no call and no wait (default one minute). */
    @Parameter(property = StallBound.PROPERTY)
    private String stallTimeout;

    /** Explores only the scenario of this name; when not set, every scenario (once per distinct ops and policy). */
    @Parameter(property = "resilience.explore.scenario")
    private String scenario;

    /** The most fault plans to run per scenario (the runs that shrink a counterexample are not counted). */
    @Parameter(property = "resilience.explore.maxPlans", defaultValue = "10000")
    private long maxPlans;

    /**
     * The most wall-clock time for the whole search, written like a yaml duration (500ms, 60s, 2m) and shared out
     * evenly over the scenarios still to explore. A search that ends by time may get further on a faster machine.
     */
    @Parameter(property = "resilience.explore.timeLimit", defaultValue = "60s")
    private String timeLimit;

    /** Seeds the random plans: the same seed finds the same counterexamples whenever maxPlans ends the search. */
    @Parameter(property = "resilience.explore.seed", defaultValue = "1")
    private long seed;

    /**
     * Also searches these provider limits for each scenario, comma-separated: {@code requests_per_minute} (the highest
     * rate the loop still breaks under) and {@code token_quota} (the smallest quota it breaks under). None by default.
     */
    @Parameter(property = "resilience.explore.limits", defaultValue = "")
    private String limits;

    /** Fails the build when a counterexample is found; by default they are only reported. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "false")
    private boolean failOnViolation;

    /** Skips this goal only. */
    @Parameter(property = "resilience.explore.skip", defaultValue = "false")
    private boolean skipGoal;

    @Override
    protected String goal() {
        return "explore";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected boolean shards() {
        return true;
    }

    @Override
    protected void run(HarnessConfig config) throws MojoExecutionException, MojoFailureException, RunException {
        if (config.scenarios().isEmpty()) {
            getLog().warn(ScenarioScope.noScenarios(config, goal()));
            return;
        }
        List<Scenario> targets = scenarios(config);
        if (!part().whole()) {
            getLog().info(ShardMessages.plans(part()));
        }
        Duration limit;
        try {
            limit = Durations.parse(timeLimit);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("resilience.explore.timeLimit: " + e.getMessage());
        }
        if (maxPlans < 0) {
            throw new MojoExecutionException("resilience.explore.maxPlans is " + maxPlans + "; give 0 or more");
        }
        List<String> limitNames = limitNames();
        List<LimitSearch.Finding> limitFindings = new ArrayList<>();
        List<ExplorationResult> results = new ArrayList<>();
        Duration stallBound = ScenarioRunner.stallBound(stallTimeout);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = projectLoader()) {
            thread.setContextClassLoader(loader);
            Rehearsal rehearsal = Rehearsal.forLoopOf(config, loader, null, null);
            rehearsal.stallBound(stallBound);
            Explorer explorer = new Explorer(rehearsal);
            long start = System.nanoTime();
            for (int i = 0; i < targets.size(); i++) {
                Duration left = limit.minusNanos(System.nanoTime() - start);
                Duration share = left.isNegative() ? Duration.ZERO : left.dividedBy(targets.size() - i);
                results.add(explorer.explore(targets.get(i), new Explorer.Settings(maxPlans, share, seed, 0),
                        part()::ownsPlan));
            }
            LimitSearch search = new LimitSearch(rehearsal);
            for (Scenario target : targets) {
                if (limitNames.contains("requests_per_minute")) {
                    search.highestRequestsPerMinute(target).ifPresent(limitFindings::add);
                }
                if (limitNames.contains("token_quota")) {
                    search.smallestTokenQuota(target).ifPresent(limitFindings::add);
                }
            }
        } catch (SetupException e) {
            throw new MojoExecutionException(e.getMessage());
        } catch (IOException e) {
            throw new MojoExecutionException("cannot close the project's test class loader: " + e.getMessage(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
        report(results, limitFindings);
    }

    private List<String> limitNames() throws MojoExecutionException {
        List<String> names = new ArrayList<>();
        for (String part : limits == null ? new String[0] : limits.split(",")) {
            String name = part.strip();
            if (name.isEmpty()) {
                continue;
            }
            if (!LimitSearch.LIMITS.contains(name)) {
                String near = DidYouMean.suggest(name, LimitSearch.LIMITS);
                throw new MojoExecutionException("resilience.explore.limits: no limit '" + name + "' to search"
                        + (near != null ? "; did you mean '" + near + "'?" : "; give "
                                + String.join(" or ", LimitSearch.LIMITS)));
            }
            names.add(name);
        }
        return names;
    }

    private List<Scenario> scenarios(HarnessConfig config) throws MojoExecutionException {
        if (scenario == null || scenario.isBlank()) {
            List<Scenario> distinct = Explorer.distinct(config.scenarios());
            if (distinct.size() < config.scenarios().size()) {
                getLog().info("Exploring " + distinct.size() + " of " + config.scenarios().size()
                        + " scenarios: the others have the same ops and policy as one of them");
            }
            return distinct;
        }
        List<String> names = config.scenarios().stream().map(Scenario::name).toList();
        String near = DidYouMean.suggest(scenario, names);
        return config.scenarios().stream().filter(s -> s.name().equals(scenario)).findFirst().map(List::of)
                .orElseThrow(() -> new MojoExecutionException("resilience.explore.scenario: no scenario '" + scenario
                        + "' in " + config.file() + (near != null ? "; did you mean '" + near + "'?"
                                : "; it has " + String.join(", ", names))));
    }

    private void report(List<ExplorationResult> results, List<LimitSearch.Finding> limitFindings)
            throws MojoExecutionException, MojoFailureException {
        long plans = 0;
        int found = 0;
        for (LimitSearch.Finding f : limitFindings) {
            found++;
            for (Violation v : f.violations()) {
                if (failOnViolation) {
                    getLog().error(v.line());
                } else {
                    getLog().warn(v.line());
                }
            }
            getLog().info("The loop breaks with " + f.limit() + ": " + f.value() + " (" + f.tried()
                    + " values tried). Paste under scenarios: in " + config.getName() + " to keep this case:");
            f.yaml().lines().forEach(getLog()::info);
        }
        for (ExplorationResult r : results) {
            plans += r.plans();
            if (r.ended() == ExplorationResult.Ended.TIME_LIMIT) {
                getLog().info("Scenario " + r.scenario().name() + ": the time limit ended the search after "
                        + r.plans() + " plans; raise resilience.explore.timeLimit to search all maxPlans");
            }
            for (Counterexample c : r.counterexamples()) {
                found++;
                for (Violation v : c.violations()) {
                    if (failOnViolation) {
                        getLog().error(v.line());
                    } else {
                        getLog().warn(v.line());
                    }
                }
                getLog().info("Paste under scenarios: in " + config.getName() + " to keep this case:");
                c.yaml().lines().forEach(getLog()::info);
            }
        }
        Path json = outputDirectory.toPath().resolve("explore.json");
        try {
            AtomicFiles.write(json, (Json.prettyPrint(ExploreReport.json(results, seed, limitFindings)) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MojoExecutionException(json + ": cannot write the explore report: " + e.getMessage(), e);
        }
        String summary = "explored " + plans + " plans, found " + found
                + (found == 1 ? " counterexample" : " counterexamples") + " (seed " + seed + "); see " + json;
        if (found > 0 && failOnViolation) {
            throw new MojoFailureException("resilience:explore: " + summary);
        }
        getLog().info("resilience:explore: " + summary);
    }

    /** The project's test classpath on top of the plugin's own classes. */
    private URLClassLoader projectLoader() throws MojoExecutionException, RunException {
        try {
            return ScenarioLauncher.projectLoader(project.getTestClasspathElements());
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("the project's test classpath is not resolved: " + e.getMessage(), e);
        }
    }
}
