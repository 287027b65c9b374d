package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.ProviderLimits;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Searches {@code provider_limits} values for a scenario, its own faults kept and its {@code expect} ignored: the
 * highest {@code requests_per_minute}, or the smallest {@code token_quota}, under which the loop still breaks an
 * invariant. Only values that change the run are tried: request rates below the calls of the unlimited run, and
 * quotas at the tokens spent after each of its calls. Each candidate runs alone, against an endpoint of its own.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class LimitSearch {

    /** The limits that can be searched, as {@code resilience.yaml} names them. */
    public static final List<String> LIMITS = List.of("requests_per_minute", "token_quota");

    private final Rehearsal rehearsal;

    public LimitSearch(Rehearsal rehearsal) {
        this.rehearsal = Objects.requireNonNull(rehearsal, "rehearsal");
    }

    /**
     * A limit value under which the loop breaks an invariant.
     *
     * @param limit      {@code requests_per_minute} or {@code token_quota}
     * @param value      the value found
     * @param tried      how many values were run
     * @param violations what the scenario breaks under it
     * @param yaml       the scenario with that limit, ready to paste under {@code scenarios:}
     * @param scenario   the name of the scenario searched
     */
    public record Finding(String limit, long value, int tried, List<Violation> violations, String yaml,
            String scenario) {
        public Finding {
            violations = List.copyOf(violations);
        }

        /** The name of the scenario to paste, as its yaml block names it. */
        public String name() {
            return "explore-" + scenario + "-" + limit.replace('_', '-') + "-" + value;
        }
    }

    /** The highest {@code requests_per_minute} under which {@code scenario} breaks an invariant, if any. */
    public Optional<Finding> highestRequestsPerMinute(Scenario scenario) {
        RunTrace unlimited = rehearsal.run(alone(scenario, ProviderLimits.NONE), null);
        int tried = 0;
        for (int rpm = unlimited.calls().size() - 1; rpm >= 1; rpm--) {
            tried++;
            Scenario candidate = alone(scenario, scenario.limits().withRequestsPerMinute(rpm));
            List<Violation> violations = violations(candidate);
            if (!violations.isEmpty()) {
                return Optional.of(finding("requests_per_minute", rpm, tried, scenario, candidate, violations));
            }
        }
        return Optional.empty();
    }

    /** The smallest {@code token_quota} under which {@code scenario} breaks an invariant, if any. */
    public Optional<Finding> smallestTokenQuota(Scenario scenario) {
        RunTrace unlimited = rehearsal.run(alone(scenario, ProviderLimits.NONE), null);
        List<Long> spentAfter = new ArrayList<>();
        long spent = 0;
        for (CallRecord call : unlimited.calls()) {
            if (call.tokens().total() > 0) {
                spent += call.tokens().total();
                spentAfter.add(spent);
            }
        }
        int tried = 0;
        // A quota of the tokens spent after the k-th answered call lets k calls through; below the last it bites.
        for (int k = 0; k < spentAfter.size() - 1; k++) {
            long quota = spentAfter.get(k);
            tried++;
            Scenario candidate = alone(scenario, scenario.limits().withTokenQuota(quota));
            List<Violation> violations = violations(candidate);
            if (!violations.isEmpty()) {
                return Optional.of(finding("token_quota", quota, tried, scenario, candidate, violations));
            }
        }
        return Optional.empty();
    }

    private List<Violation> violations(Scenario candidate) {
        return rehearsal.check(candidate, Explorer.RUNS, Explorer.INVARIANTS).violations();
    }

    private static Scenario alone(Scenario scenario, ProviderLimits limits) {
        return new Scenario(scenario.name(), scenario.ops(), scenario.faults(), Expectations.NONE, scenario.policy(),
                0, limits.inPool(null));
    }

    private Finding finding(String limit, long value, int tried, Scenario scenario, Scenario candidate,
            List<Violation> violations) {
        String name = new Finding(limit, value, tried, violations, "", scenario.name()).name();
        String yaml = ScenarioYaml.block(name, candidate, candidate.faults(), rehearsal.config().policy(), violations)
                + "    provider_limits: " + flow(candidate.limits()) + "\n";
        return new Finding(limit, value, tried, violations, yaml, scenario.name());
    }

    /** The limits in flow style, the keys set only. */
    static String flow(ProviderLimits l) {
        List<String> keys = new ArrayList<>();
        if (l.requestsPerMinute() != null) {
            keys.add("requests_per_minute: " + l.requestsPerMinute());
        }
        if (l.tokensPerMinute() != null) {
            keys.add("tokens_per_minute: " + l.tokensPerMinute());
        }
        if (l.tokenQuota() != null) {
            keys.add("token_quota: " + l.tokenQuota());
        }
        if (l.maxConcurrency() != null) {
            keys.add("max_concurrency: " + l.maxConcurrency());
        }
        return "{" + String.join(", ", keys) + "}";
    }
}
