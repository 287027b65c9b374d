package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.tool.ToolFault;
import dev.resilienceharness.trace.ToolRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;

/**
 * Searches the fault plans of a scenario's ops for ones that break an invariant, the way property-based and
 * simulation testing do: it runs the plans of a {@link PlanSpace} in order through a {@link Rehearsal}, shrinks
 * each new failure to a minimal plan with a {@link Shrinker}, and returns the minimal plans as counterexamples.
 *
 * <p>When the config declares tools, the scenario first runs once without faults, and the declared tools that run
 * executed are faulted too ({@link PlanSpace.Tool}); a counterexample then carries its {@code tool_faults:}, shrunk
 * after its call faults.
 *
 * <p>Each plan is checked under {@link #INVARIANTS}, with two runs so that determinism is judged too. The
 * scenario's {@code expect} lists are not: they describe its own fault plan, not the explored ones. A failure is new
 * when no earlier plan broke the same invariant at the same op; later plans that only repeat known failures are
 * counted but not shrunk, and two failures that shrink to the same plan are one counterexample.
 *
 * <p>The search ends when the plan budget is spent, the time limit is reached, or enough counterexamples are found.
 * The time limit is the one thing read from the wall clock ({@link System#nanoTime()}): a search ended by its plan
 * budget or by its counterexamples gives the same result for the same seed on any machine; one ended by the time
 * limit may have got further on a faster one. A shrink in progress always finishes.
 *
 * <p>Not thread-safe; the rehearsal it runs on is, so one explorer per thread may share it.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Explorer {

    /** The invariants a plan is checked under. */
    public static final Set<Invariant> INVARIANTS = Collections.unmodifiableSet(EnumSet.of(Invariant.BUDGET,
            Invariant.DETERMINISM, Invariant.PARTIAL_WORK, Invariant.BOUNDED_WAIT, Invariant.SIDE_EFFECTS));

    /** Runs per plan: two, so that determinism is checked. */
    static final int RUNS = 2;

    /**
     * How far to search.
     *
     * @param maxPlans           the most plans to run (shrinking not counted)
     * @param timeLimit          the most wall-clock time to spend
     * @param seed               seeds the random phase of the plan space
     * @param maxCounterexamples stop after this many counterexamples; 0 searches on until the budget ends
     */
    public record Settings(long maxPlans, Duration timeLimit, long seed, int maxCounterexamples) {

        /** 10,000 plans, 60 seconds, seed 1, every counterexample. */
        public static final Settings DEFAULTS = new Settings(10_000, Duration.ofSeconds(60), 1, 0);

        public Settings {
            if (maxPlans < 0) {
                throw new IllegalArgumentException("maxPlans must not be negative, was " + maxPlans);
            }
            Objects.requireNonNull(timeLimit, "timeLimit");
            if (timeLimit.isNegative()) {
                throw new IllegalArgumentException("timeLimit must not be negative, was " + timeLimit);
            }
            if (maxCounterexamples < 0) {
                throw new IllegalArgumentException("maxCounterexamples must not be negative, was "
                        + maxCounterexamples);
            }
        }

        public Settings withMaxPlans(long value) {
            return new Settings(value, timeLimit, seed, maxCounterexamples);
        }

        public Settings withTimeLimit(Duration value) {
            return new Settings(maxPlans, value, seed, maxCounterexamples);
        }

        public Settings withSeed(long value) {
            return new Settings(maxPlans, timeLimit, value, maxCounterexamples);
        }

        public Settings withMaxCounterexamples(int value) {
            return new Settings(maxPlans, timeLimit, seed, value);
        }
    }

    private final Rehearsal rehearsal;
    private final LongSupplier nanoTime;

    /** An explorer over {@code rehearsal}'s loop and cassettes, timed by {@link System#nanoTime()}. */
    public Explorer(Rehearsal rehearsal) {
        this(rehearsal, System::nanoTime);
    }

    /** An explorer timed by {@code nanoTime}, so that tests can end a search by time without waiting. */
    Explorer(Rehearsal rehearsal, LongSupplier nanoTime) {
        this.rehearsal = Objects.requireNonNull(rehearsal, "rehearsal");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** Searches the fault plans of {@code scenario}'s ops under its policy; its own faults and expect are ignored. */
    public ExplorationResult explore(Scenario scenario, Settings settings) {
        return explore(scenario, settings, number -> true);
    }

    /**
     * As {@link #explore(Scenario, Settings)}, running only the plans whose numbers (1, 2, ... in the plan space's
     * order, up to {@code maxPlans}) {@code part} accepts: a shard's share of the search. The result counts the plans
     * run.
     */
    public ExplorationResult explore(Scenario scenario, Settings settings, LongPredicate part) {
        // The plans meet the scenario's provider_limits too (faults first, then the limits), on an endpoint of its own.
        Scenario base = new Scenario(scenario.name(), scenario.ops(), List.of(), Expectations.NONE, scenario.policy(),
                scenario.line(), scenario.limits().inPool(null));
        List<PlanSpace.Tool> tools = tools(base);
        PlanSpace space = PlanSpace.of(base, base.ops().stream().anyMatch(rehearsal::streams), tools);
        Iterator<PlanSpace.Plan> plans = space.plans(settings.seed());
        Search search = new Search(base, space, tools);
        long start = nanoTime.getAsLong();
        long limit = settings.timeLimit().toNanos();
        long run = 0;
        long ran = 0;
        while (true) {
            if (run >= settings.maxPlans()) {
                return new ExplorationResult(scenario, ran, search.found, ExplorationResult.Ended.PLAN_BUDGET);
            }
            if (nanoTime.getAsLong() - start >= limit) {
                return new ExplorationResult(scenario, ran, search.found, ExplorationResult.Ended.TIME_LIMIT);
            }
            PlanSpace.Plan plan = plans.next();
            run++;
            if (!part.test(run)) {
                continue;
            }
            ran++;
            List<Violation> violations = violations(candidate(base, plan.faults(), plan.toolFaults()));
            for (Invariant invariant : Invariant.values()) {
                Violation first = first(violations, invariant);
                if (first != null && search.seen.add(signature(first))) {
                    search.shrink(plan, run, invariant);
                    if (settings.maxCounterexamples() > 0 && search.found.size() >= settings.maxCounterexamples()) {
                        return new ExplorationResult(scenario, ran, search.found,
                                ExplorationResult.Ended.COUNTEREXAMPLES);
                    }
                }
            }
        }
    }

    /** What one scenario's search has found so far. */
    private final class Search {

        private final Scenario base;
        private final PlanSpace space;
        /** The invariant and op of every failure met, so that repeats are not shrunk again. */
        private final Set<String> seen = new HashSet<>();
        private final Set<List<Object>> minimalPlans = new HashSet<>();
        private final Map<Invariant, Integer> numbers = new EnumMap<>(Invariant.class);
        private final List<Counterexample> found = new ArrayList<>();

        /** Each faulted tool's vocabulary, for the tool faults' shrinking. */
        private final Map<String, List<ToolFault>> toolVocabulary = new LinkedHashMap<>();

        Search(Scenario base, PlanSpace space, List<PlanSpace.Tool> tools) {
            this.base = base;
            this.space = space;
            tools.forEach(t -> toolVocabulary.put(t.name(), t.faults()));
        }

        /**
         * Shrinks {@code plan}, the {@code run}-th, for {@code invariant}; keeps the result when it is new. The calls'
         * faults shrink first, the tool faults held; then the tool faults, the calls' held; then the calls' again
         * when the tool faults changed.
         */
        void shrink(PlanSpace.Plan plan, long run, Invariant invariant) {
            Map<String, List<ToolFault>> tools = ToolFaultShrinker.trimmed(plan.toolFaults());
            List<Fault> minimal = shrinkCalls(plan.faults(), tools, invariant);
            if (!tools.isEmpty()) {
                List<Fault> calls = minimal;
                Map<String, List<ToolFault>> shrunk = new ToolFaultShrinker(
                        t -> first(violations(candidate(base, calls, t)), invariant) != null, toolVocabulary)
                        .shrink(tools);
                if (!shrunk.equals(tools)) {
                    tools = shrunk;
                    minimal = shrinkCalls(minimal, tools, invariant);
                }
            }
            if (!minimalPlans.add(List.of(invariant, minimal, tools))) {
                return;
            }
            int number = numbers.merge(invariant, 1, Integer::sum);
            String name = "explore-" + base.name() + "-" + invariant.id() + "-" + number;
            Scenario named = new Scenario(name, base.ops(), minimal, Expectations.NONE, base.policy(), 0,
                    base.limits()).withToolFaults(tools);
            List<Violation> caused = new ArrayList<>();
            for (Violation v : violations(named)) {
                if (v.invariant() == invariant) {
                    caused.add(v);
                    seen.add(signature(v));
                }
            }
            String yaml = ScenarioYaml.block(name, named, minimal, rehearsal.config().policy(), caused);
            if (!base.limits().limitsNothing()) {
                // The limits the plan was found under, on an endpoint of its own as it ran.
                yaml += "    provider_limits: " + LimitSearch.flow(base.limits()).replace("}", ", shared: false}")
                        + "\n";
            }
            found.add(new Counterexample(name, invariant, minimal, caused, yaml, plan.phase(), run, tools));
        }

        private List<Fault> shrinkCalls(List<Fault> faults, Map<String, List<ToolFault>> tools, Invariant invariant) {
            if (faults.isEmpty()) {
                return List.of();
            }
            return new Shrinker(p -> first(violations(candidate(base, p, tools)), invariant) != null,
                    space.vocabulary()).shrink(faults);
        }
    }

    /**
     * The first of each group of {@code scenarios} with the same ops and policy: the plans explored depend on nothing
     * else, so exploring the others again would find the same counterexamples under other names.
     */
    public static List<Scenario> distinct(List<Scenario> scenarios) {
        Map<List<Object>, Scenario> first = new LinkedHashMap<>();
        for (Scenario s : scenarios) {
            first.putIfAbsent(List.of(s.ops(), s.policy()), s);
        }
        return List.copyOf(first.values());
    }

    /**
     * The declared tools the fault-free run of {@code base} executed, in the order it first did, each with how many
     * times: the tools whose executions the plans fault. None, and no run, when the config declares no tool.
     */
    private List<PlanSpace.Tool> tools(Scenario base) {
        if (rehearsal.config().tools().isEmpty()) {
            return List.of();
        }
        Map<String, Integer> executions = new LinkedHashMap<>();
        for (ToolRecord r : rehearsal.check(base, 1, INVARIANTS).trace().tools()) {
            if (rehearsal.config().tools().containsKey(r.name())) {
                executions.merge(r.name(), 1, Integer::sum);
            }
        }
        List<PlanSpace.Tool> tools = new ArrayList<>();
        executions.forEach((name, n) -> tools.add(PlanSpace.Tool.of(rehearsal.config().tool(name), n)));
        return tools;
    }

    private static Scenario candidate(Scenario base, List<Fault> faults, Map<String, List<ToolFault>> tools) {
        return base.withFaults(faults).withToolFaults(tools);
    }

    private List<Violation> violations(Scenario candidate) {
        return rehearsal.check(candidate, RUNS, INVARIANTS).violations();
    }

    private static Violation first(List<Violation> violations, Invariant invariant) {
        for (Violation v : violations) {
            if (v.invariant() == invariant) {
                return v;
            }
        }
        return null;
    }

    /** A failure is known by its invariant and op. */
    private static String signature(Violation v) {
        return v.invariant().id() + " " + v.op();
    }
}
