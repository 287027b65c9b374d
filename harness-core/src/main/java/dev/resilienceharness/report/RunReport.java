package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Everything one run of the harness found, as the reports show it: the checked scenarios, the cassette check,
 * the secret scan and, when the explore goal ran, its summary. Built with {@link #builder()}.
 *
 * @param scenarios   every checked scenario, in run order
 * @param cassettes   the cassette integrity check
 * @param secrets     the secret scan
 * @param exploration the fault-plan search, or {@link Exploration#NONE}
 */
@API(status = INTERNAL, since = "0.1.0")
public record RunReport(List<ScenarioReport> scenarios, Cassettes cassettes, Secrets secrets,
        Exploration exploration) {

    public RunReport {
        scenarios = List.copyOf(scenarios);
        Objects.requireNonNull(cassettes, "cassettes");
        Objects.requireNonNull(secrets, "secrets");
        Objects.requireNonNull(exploration, "exploration");
    }

    /**
     * The cassette integrity part.
     *
     * @param checked    cassette files read
     * @param violations broken files and missing cassettes
     * @param warnings   orphan cassettes and other notes that do not fail the run
     */
    public record Cassettes(int checked, List<Violation> violations, List<String> warnings) {
        public static final Cassettes NONE = new Cassettes(0, List.of(), List.of());

        public Cassettes {
            violations = List.copyOf(violations);
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * The secret scan part.
     *
     * @param files    cassette files scanned
     * @param findings every finding not allowed by {@code redaction.allow}
     */
    public record Secrets(int files, List<SecretFindingRow> findings) {
        public static final Secrets NONE = new Secrets(0, List.of());

        public Secrets {
            findings = List.copyOf(findings);
        }
    }

    /**
     * The fault-plan search summary.
     *
     * @param plansExplored   fault plans tried; 0 when the search did not run
     * @param counterexamples each smallest breaking plan as a ready-to-paste text block
     */
    public record Exploration(int plansExplored, List<String> counterexamples) {
        public static final Exploration NONE = new Exploration(0, List.of());

        public Exploration {
            counterexamples = List.copyOf(counterexamples);
        }

        /** Whether the search ran at all. */
        public boolean ran() {
            return plansExplored > 0;
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Violations by invariant, every one in report order: scenario violations under their own invariant,
     * cassette violations under theirs, and each secret finding under {@code secrets}.
     */
    public Map<Invariant, Integer> violationsByInvariant() {
        Map<Invariant, Integer> counts = new EnumMap<>(Invariant.class);
        for (Invariant i : Invariant.values()) {
            counts.put(i, 0);
        }
        for (ScenarioReport s : scenarios) {
            for (Violation v : s.violations()) {
                counts.merge(v.invariant(), 1, Integer::sum);
            }
        }
        for (Violation v : cassettes.violations()) {
            counts.merge(v.invariant(), 1, Integer::sum);
        }
        counts.merge(Invariant.SECRETS, secrets.findings().size(), Integer::sum);
        return Collections.unmodifiableMap(counts);
    }

    /** All violations and secret findings. */
    public int violationCount() {
        int sum = 0;
        for (int n : violationsByInvariant().values()) {
            sum += n;
        }
        return sum;
    }

    /** Whether nothing broke. */
    public boolean passed() {
        return violationCount() == 0;
    }

    /** The scenarios with at least one violation. */
    public List<ScenarioReport> failingScenarios() {
        return scenarios.stream().filter(s -> !s.violations().isEmpty()).toList();
    }

    /** Collects the parts of a {@link RunReport}; parts not given are empty. */
    public static final class Builder {
        private final List<ScenarioReport> scenarios = new ArrayList<>();
        private Cassettes cassettes = Cassettes.NONE;
        private Secrets secrets = Secrets.NONE;
        private Exploration exploration = Exploration.NONE;

        private Builder() {
        }

        public Builder scenario(ScenarioReport scenario) {
            scenarios.add(Objects.requireNonNull(scenario, "scenario"));
            return this;
        }

        public Builder scenarios(List<ScenarioReport> more) {
            more.forEach(this::scenario);
            return this;
        }

        public Builder cassettes(int checked, List<Violation> violations, List<String> warnings) {
            this.cassettes = new Cassettes(checked, violations, warnings);
            return this;
        }

        public Builder cassettes(CassetteIntegrity.Report report) {
            return cassettes(report.checked(), report.violations(), report.warnings());
        }

        public Builder secrets(int files, List<SecretFindingRow> findings) {
            this.secrets = new Secrets(files, findings);
            return this;
        }

        public Builder exploration(int plansExplored, List<String> counterexamples) {
            this.exploration = new Exploration(plansExplored, counterexamples);
            return this;
        }

        public RunReport build() {
            return new RunReport(scenarios, cassettes, secrets, exploration);
        }
    }
}
