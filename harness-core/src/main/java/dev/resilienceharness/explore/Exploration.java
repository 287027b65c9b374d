package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.scenario.Rehearsal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;

/**
 * The {@code explore} goal's search over a config's scenarios: the fault plans of each in turn, within one time limit
 * shared out evenly over the scenarios still to explore ({@link TimeShare}), then the provider limits asked for.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Exploration {

    /**
     * How far to search.
     *
     * @param maxPlans  the most fault plans to run per scenario
     * @param timeLimit the most wall-clock time for the whole search
     * @param limits    the provider limits to search, of {@link LimitSearch#LIMITS}
     * @param part      the plans of this shard ({@link Explorer#explore(Scenario, Explorer.Settings, LongPredicate)})
     */
    public record Settings(long maxPlans, Duration timeLimit, long seed, List<String> limits, LongPredicate part) {
    }

    /** What the search found: each scenario's fault plans, then the limits the loop breaks under. */
    public record Outcome(List<ExplorationResult> results, List<LimitSearch.Finding> limits) {
    }

    private Exploration() {
    }

    /** Searches {@code targets} with {@code rehearsal}'s loop, timed by {@link System#nanoTime()}. */
    public static Outcome search(Rehearsal rehearsal, List<Scenario> targets, Settings settings) {
        return search(new Explorer(rehearsal), new LimitSearch(rehearsal), targets, settings, System::nanoTime);
    }

    static Outcome search(Explorer explorer, LimitSearch search, List<Scenario> targets, Settings settings,
            LongSupplier nanoTime) {
        List<ExplorationResult> results = new ArrayList<>();
        TimeShare time = new TimeShare(settings.timeLimit(), targets.size(), nanoTime);
        for (Scenario target : targets) {
            results.add(explorer.explore(target, new Explorer.Settings(settings.maxPlans(), time.next(),
                    settings.seed(), 0), settings.part()));
        }
        List<LimitSearch.Finding> limits = new ArrayList<>();
        for (Scenario target : targets) {
            if (settings.limits().contains("requests_per_minute")) {
                search.highestRequestsPerMinute(target).ifPresent(limits::add);
            }
            if (settings.limits().contains("token_quota")) {
                search.smallestTokenQuota(target).ifPresent(limits::add);
            }
        }
        return new Outcome(results, limits);
    }
}
