package dev.resilienceharness.scenario;

import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.CallRecord;
import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.BuiltinLoop;
import dev.resilienceharness.loop.Journal;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RehearsalTest {

    private static final String YAML = """
            version: 1
            policy: {max_total_wait: 30s}
            scenarios:
              - name: a
                ops: [plan, patch]
                faults: [none, crash]
              - name: b
                ops: [patch, review, deploy]
                faults: [timeout]
            """;

    @TempDir
    Path dir;

    private Path yaml() {
        return dir.resolve("resilience.yaml");
    }

    private String fileFor(HarnessConfig config, String op) {
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        return store.fingerprint(config.request(op)) + ".json";
    }

    /** Every instance it makes, and what each saw when its run began. */
    private static final class Recording implements LoopFactory {
        final List<AgentLoop> instances = new ArrayList<>();
        final List<Journal> journals = new ArrayList<>();
        final List<Integer> journaledAtStart = new ArrayList<>();
        final List<Instant> clockAtStart = new ArrayList<>();

        @Override
        public AgentLoop create() {
            AgentLoop loop = new AgentLoop() {
                @Override
                public List<Outcome> run(LoopRun run) {
                    journals.add(run.journal());
                    journaledAtStart.add(run.journal().completed().size());
                    clockAtStart.add(run.now());
                    return new BuiltinLoop().run(run);
                }
            };
            instances.add(loop);
            return loop;
        }
    }

    @Test
    void prepare_lists_every_op_without_a_cassette_by_file_line_and_key() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        SetupException e = assertThrows(SetupException.class, () -> Rehearsal.prepare(config, LoopFactory.builtin()));
        String plan = fileFor(config, "plan");
        assertEquals(List.of(
                yaml() + ":5:17: scenarios[0].ops[1]: no cassette for op 'patch': looked for " + fileFor(config, "patch")
                        + "; the nearest recorded request is " + plan + ", which differs at op. Run mvn"
                        + " resilience:record to record it",
                yaml() + ":8:18: scenarios[1].ops[1]: no cassette for op 'review': looked for " + fileFor(config, "review")
                        + "; the nearest recorded request is " + plan + ", which differs at op. Run mvn"
                        + " resilience:record to record it",
                yaml() + ":8:26: scenarios[1].ops[2]: no cassette for op 'deploy': looked for " + fileFor(config, "deploy")
                        + "; the nearest recorded request is " + plan + ", which differs at op. Run mvn"
                        + " resilience:record to record it"), e.problems());
        assertEquals(String.join(System.lineSeparator(), e.problems()), e.getMessage());
    }

    @Test
    void a_loop_that_cannot_be_loaded_is_a_setup_problem_naming_the_yaml() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML.replace("version: 1\n",
                "version: 1\nloop: com.example.agent.NoSuchLoop\n"), "plan", "patch", "review", "deploy");
        SetupException e = assertThrows(SetupException.class,
                () -> Rehearsal.forLoopOf(config, getClass().getClassLoader(), null, null));
        assertEquals(List.of(yaml().toAbsolutePath().normalize() + ": loop: class com.example.agent.NoSuchLoop is not"
                + " on the project's test classpath; check the name, or add the module that holds it as a test"
                + " dependency"), e.problems());
    }

    @Test
    void the_loop_the_yaml_names_is_loaded_and_a_verified_config_reads_no_cassette_at_set_up() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        Map<String, String> fingerprints = new LinkedHashMap<>();
        for (String op : List.of("plan", "patch", "review", "deploy")) {
            fingerprints.put(op, fileFor(config, op).replace(".json", ""));
        }
        Rehearsal verified = Rehearsal.forLoopOf(config, getClass().getClassLoader(), fingerprints, null);
        assertEquals(List.of(), verified.check(scenario(config, "a"), 2, Rehearsal.RUN_INVARIANTS).violations());
        // Unverified, the cassettes are read at set-up: one gone is a setup problem, not a failed run.
        Files.delete(dir.resolve("cassettes").resolve(fileFor(config, "deploy")));
        assertThrows(SetupException.class, () -> Rehearsal.forLoopOf(config, getClass().getClassLoader(), null,
                null));
    }

    @Test
    void a_missing_cassette_of_a_declared_request_points_at_the_request_not_the_scenario() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                policy: {max_total_wait: 1s}
                requests:
                  plan: {model: m, messages: [{role: user, content: plan it}]}
                scenarios:
                  - name: s
                    ops: [plan]
                """);
        HarnessConfig config = dev.resilienceharness.config.ConfigLoader.load(dir.resolve("resilience.yaml"));
        SetupException e = assertThrows(SetupException.class, () -> Rehearsal.prepare(config, LoopFactory.builtin()));
        assertEquals(1, e.problems().size());
        assertTrue(e.problems().get(0).startsWith(yaml() + ":4:3: requests.plan: no cassette for op 'plan'"),
                e.problems().get(0));
    }

    @Test
    void prepare_names_an_unusable_cassette() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "review", "deploy");
        Path broken = config.cassettes().resolve(fileFor(config, "patch"));
        Files.writeString(broken, "{\"request\": {\"op\": \"patch\"}}");
        SetupException e = assertThrows(SetupException.class, () -> Rehearsal.prepare(config, LoopFactory.builtin()));
        assertEquals(List.of(yaml() + ":5:17: scenarios[0].ops[1]: the cassette for op 'patch' is unusable: " + broken
                + ": has no \"response\"; a cassette is {\"request\": {...}, \"response\": {...}}. Fix the file, or delete"
                + " it and run mvn resilience:record"), e.problems());
    }

    @Test
    void a_loop_that_throws_is_reported_under_partial_work_without_a_stack_trace() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        LoopFactory throwing = () -> run -> {
            throw new IllegalStateException("no route to the planner");
        };
        ScenarioResult result = Rehearsal.prepare(config, throwing).check(scenario(config, "b"), 2,
                Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), result.trace().outcomes());
        assertEquals(List.of("b [partial_work]: the loop threw IllegalStateException: no route to the planner, losing"
                + " every outcome of the run. A loop must return its outcomes, not throw"),
                result.violations().stream().map(Violation::line).toList());
        LoopFactory silent = () -> run -> {
            throw new UnsupportedOperationException();
        };
        RunTrace trace = Rehearsal.prepare(config, silent).run(scenario(config, "b"), null);
        assertEquals(new RunTrace.Failure(RunTrace.Kind.LOOP_FAILED, "the loop threw UnsupportedOperationException,"
                + " losing every outcome of the run"), trace.failure());
    }

    @Test
    void a_loop_that_returns_null_is_reported_under_partial_work() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        RunTrace trace = Rehearsal.prepare(config, () -> run -> null).run(scenario(config, "b"), null);
        assertEquals(new RunTrace.Failure(RunTrace.Kind.LOOP_FAILED, "the loop returned null instead of its outcome list"),
                trace.failure());
    }

    @Test
    void a_loop_calling_without_end_is_cut_short() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        LoopFactory forever = () -> run -> {
            while (true) {
                try {
                    run.transport().call(run.request("patch"));
                } catch (CallFailure e) {
                    // keeps going
                }
            }
        };
        ScenarioResult result = Rehearsal.prepare(config, forever).check(scenario(config, "b"), 1,
                Set.of(Invariant.BUDGET));
        assertEquals(new RunTrace.Failure(RunTrace.Kind.RUNAWAY_CALLS,
                "run cut short: the loop made 10000 calls in one run without finishing"), result.trace().failure());
        assertEquals(10_000, result.calls());
        assertTrue(result.violations().stream().anyMatch(v -> v.line().equals(
                "b [budget]: run cut short: the loop made 10000 calls in one run without finishing. Retry only what the"
                        + " policy allows: transient failures up to max_attempts, one retry after an honourable"
                        + " Retry-After, up to repair_attempts repairs")), result.violations().toString());
    }

    @Test
    void a_crash_restarts_a_fresh_loop_instance_on_the_same_journal() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        Recording loops = new Recording();
        RunTrace trace = Rehearsal.prepare(config, loops).run(scenario(config, "a"), null);
        assertEquals(2, loops.instances.size());
        assertNotSame(loops.instances.get(0), loops.instances.get(1));
        assertSame(loops.journals.get(0), loops.journals.get(1));
        assertEquals(List.of(0, 1), loops.journaledAtStart, "the fresh instance finds plan in the journal");
        assertEquals(1, trace.restarts().size());
        assertEquals(1, trace.restarts().get(0).afterCall());
        assertEquals(List.of("plan"), trace.restarts().get(0).journaled().stream().map(Outcome::op).toList());
        assertEquals(List.of(0, 0, 1), trace.calls().stream().map(CallRecord::incarnation).toList());
        assertEquals(List.of("plan", "patch"), trace.outcomes().stream().map(Outcome::op).toList());
    }

    @Test
    void a_loop_that_swallows_its_process_death_is_restarted_all_the_same() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        List<Integer> starts = new ArrayList<>();
        LoopFactory swallows = () -> run -> {
            starts.add(run.journal().completed().size());
            List<Outcome> out = new ArrayList<>(run.journal().completed());
            for (String op : run.ops().subList(out.size(), run.ops().size())) {
                try {
                    Outcome o = Outcome.ok(op, run.transport().call(run.request(op)).body(), 1);
                    run.journal().record(o);
                    out.add(o);
                } catch (Throwable t) {
                    out.add(Outcome.degraded(op, "timeout", 1));
                }
            }
            return out;
        };
        RunTrace trace = Rehearsal.prepare(config, swallows).run(scenario(config, "a"), null);
        assertEquals(List.of(0, 1), starts, "what a dead process returned is discarded");
        assertEquals(1, trace.restarts().size());
        assertEquals("{\"op\":\"patch\",\"status\":\"ok\",\"value\":{\"done\":\"patch\"},\"attempts\":1}",
                trace.outcomes().get(1).toJson().toString());
    }

    @Test
    void a_rehearsal_on_verified_cassettes_takes_the_ops_fingerprints_from_the_verification() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        CassetteIntegrity.Report verified = CassetteIntegrity.check(config, false);
        assertEquals(List.of("plan", "patch", "review", "deploy"), List.copyOf(verified.fingerprints().keySet()));
        assertEquals(fileFor(config, "review"), verified.fingerprints().get("review") + ".json");
        ScenarioResult clean = Rehearsal.prepareVerified(config, LoopFactory.builtin(), verified.fingerprints())
                .check(scenario(config, "b"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), clean.violations());
        // Given a fingerprint no cassette has, the runs look for that file: nothing is worked out again.
        Map<String, String> wrong = new LinkedHashMap<>(verified.fingerprints());
        wrong.put("review", "0000000000000000");
        ScenarioResult missing = Rehearsal.prepareVerified(config, LoopFactory.builtin(), wrong)
                .check(scenario(config, "b"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(Invariant.CASSETTES),
                missing.violations().stream().map(Violation::invariant).distinct().toList());
    }

    @Test
    void determinism_runs_use_fresh_instances_journals_and_clocks() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        Recording loops = new Recording();
        ScenarioResult result = Rehearsal.prepare(config, loops).check(scenario(config, "b"), 3,
                Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), result.violations());
        assertEquals(3, loops.instances.size());
        assertEquals(3, Set.copyOf(loops.instances).size());
        assertEquals(3, Set.copyOf(loops.journals).size(), "no run sees another's journal");
        assertEquals(List.of(0, 0, 0), loops.journaledAtStart);
        assertEquals(List.of(VirtualClock.EPOCH, VirtualClock.EPOCH, VirtualClock.EPOCH), loops.clockAtStart,
                "each run's clock starts afresh although the run before waited");
    }

    @Test
    void without_the_determinism_check_a_scenario_runs_once() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        Recording loops = new Recording();
        Set<Invariant> noDeterminism = Set.of(Invariant.BUDGET, Invariant.PARTIAL_WORK, Invariant.BOUNDED_WAIT,
                Invariant.EXPECTATIONS);
        Rehearsal.prepare(config, loops).check(scenario(config, "b"), 5, noDeterminism);
        assertEquals(1, loops.instances.size());
        Rehearsal.prepare(config, loops).check(scenario(config, "b"), 1, Set.of(Invariant.DETERMINISM));
        assertEquals(3, loops.instances.size(), "determinism needs at least two runs");
    }

    @Test
    void only_the_invariants_asked_for_are_checked() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        LoopFactory throwing = () -> run -> {
            throw new IllegalStateException("boom");
        };
        ScenarioResult result = Rehearsal.prepare(config, throwing).check(scenario(config, "b"), 1,
                Set.of(Invariant.BUDGET));
        assertEquals(List.of(), result.violations());
    }

    @Test
    void a_request_for_an_op_no_scenario_lists_names_the_op_under_budget_not_a_missing_recording() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        LoopFactory offScript = () -> run -> {
            try {
                run.transport().call(run.request("plan").put("op", "improvise"));
            } catch (CallFailure e) {
                // not reached
            }
            return List.of();
        };
        ScenarioResult result = Rehearsal.prepare(config, offScript).check(scenario(config, "b"), 1,
                Set.of(Invariant.PARTIAL_WORK, Invariant.BUDGET));
        assertEquals(RunTrace.Kind.UNLISTED_OP, result.trace().failure().kind());
        List<Violation> violations = result.violations();
        assertEquals(1, violations.size());
        assertEquals(Invariant.BUDGET, violations.get(0).invariant());
        assertTrue(violations.get(0).message().startsWith("the loop called op 'improvise', which the scenario does"
                + " not list"), violations.get(0).message());
        assertFalse(violations.get(0).message().contains("resilience:record"), violations.get(0).message());
    }

    @Test
    void a_cassette_miss_during_a_run_names_the_nearest_recorded_request() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        LoopFactory addsATemperature = () -> run -> {
            try {
                run.transport().call(run.request("patch").put("temperature", 0));
            } catch (CallFailure e) {
                // not reached
            }
            return List.of();
        };
        RunTrace trace = Rehearsal.prepare(config, addsATemperature).run(scenario(config, "b"), null);
        String message = trace.failure().message();
        assertFalse(message.contains("holds no cassette"), message);
        assertTrue(message.contains("the nearest recorded request is " + fileFor(config, "patch")
                + ", which differs at temperature"), message);
    }

    @Test
    void a_cassette_miss_the_loop_swallows_is_still_reported() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review", "deploy");
        LoopFactory swallowsEverything = () -> run -> {
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                try {
                    out.add(Outcome.ok(op, run.transport().call(run.request(op).put("temperature", 0)).body(), 1));
                } catch (Exception e) {
                    out.add(Outcome.degraded(op, "timeout", 1));
                }
            }
            return out;
        };
        ScenarioResult result = Rehearsal.prepare(config, swallowsEverything).check(scenario(config, "b"), 1,
                Rehearsal.RUN_INVARIANTS);
        assertTrue(result.violations().stream().anyMatch(v -> v.invariant() == Invariant.CASSETTES),
                result.violations().toString());
    }
}
