package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.policy.Policy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlanSpaceTest {

    static final Policy POLICY = Policy.defaults(Duration.ofSeconds(30));

    static Scenario scenario(Policy policy, String... ops) {
        return new Scenario("s", List.of(ops), List.of(), Expectations.NONE, policy, 0);
    }

    static List<PlanSpace.Plan> take(Iterator<PlanSpace.Plan> plans, long n) {
        List<PlanSpace.Plan> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add(plans.next());
        }
        return out;
    }

    @Test
    void the_vocabulary_comes_from_the_policy_bounds() {
        assertEquals(List.of(TimeoutFault.INSTANCE, new ServerErrorFault(503), new QuotaFault(null),
                new QuotaFault("0"), new QuotaFault("59.999"), new QuotaFault("60.001"), new QuotaFault("29.999"),
                new QuotaFault("30.001"), BadToolCallFault.INSTANCE, new SlowFirstTokenFault(2001),
                CrashFault.INSTANCE), PlanSpace.of(scenario(POLICY, "plan")).vocabulary());
    }

    @Test
    void equal_bounds_give_each_quota_once() {
        Policy policy = POLICY.withQuota(new Policy.Quota(POLICY.quota().withRetryAfter(), Duration.ofSeconds(30)));
        List<Fault> vocabulary = PlanSpace.of(scenario(policy, "plan")).vocabulary();
        assertEquals(List.of(new QuotaFault(null), new QuotaFault("0"), new QuotaFault("29.999"),
                new QuotaFault("30.001")), vocabulary.stream().filter(f -> f instanceof QuotaFault).toList());
        assertEquals(Set.copyOf(vocabulary).size(), vocabulary.size());
    }

    @Test
    void a_zero_bound_has_nothing_just_under_it() {
        Policy policy = POLICY.withMaxTotalWait(Duration.ZERO);
        assertEquals(List.of(new QuotaFault(null), new QuotaFault("0"), new QuotaFault("59.999"),
                new QuotaFault("60.001"), new QuotaFault("0.001")), PlanSpace.of(scenario(policy, "plan"))
                        .vocabulary().stream().filter(f -> f instanceof QuotaFault).toList());
    }

    @Test
    void triples_use_one_fault_per_kind_and_the_honourable_quota() {
        assertEquals(List.of(TimeoutFault.INSTANCE, new ServerErrorFault(503), new QuotaFault(null),
                new QuotaFault("0"), BadToolCallFault.INSTANCE, new SlowFirstTokenFault(2001), CrashFault.INSTANCE),
                PlanSpace.of(scenario(POLICY, "plan")).tripleVocabulary());
    }

    @Test
    void the_horizon_covers_every_call_a_sound_policy_allows_up_to_a_cap() {
        // 2 ops x (3 attempts + 1 repair + 2)
        assertEquals(12, PlanSpace.of(scenario(POLICY, "plan", "patch")).horizon());
        assertEquals(24, PlanSpace.of(scenario(POLICY.withMaxRounds(2), "plan", "patch")).horizon());
        assertEquals(PlanSpace.MAX_HORIZON, PlanSpace.of(scenario(POLICY.withMaxAttempts(100), "a", "b")).horizon());
    }

    @Test
    void the_empty_plan_comes_first_then_every_fault_alone_at_every_position() {
        PlanSpace space = PlanSpace.of(scenario(POLICY, "plan"));
        int v = space.vocabulary().size();
        List<PlanSpace.Plan> plans = take(space.plans(1), 1 + (long) space.horizon() * v);
        assertEquals(new PlanSpace.Plan(PlanSpace.Phase.EMPTY, List.of()), plans.get(0));
        assertEquals(List.of(TimeoutFault.INSTANCE), plans.get(1).faults());
        assertEquals(List.of(NoFault.INSTANCE, TimeoutFault.INSTANCE), plans.get(1 + v).faults());
        Set<List<Fault>> singles = new HashSet<>();
        for (PlanSpace.Plan p : plans.subList(1, plans.size())) {
            assertEquals(PlanSpace.Phase.SINGLES, p.phase());
            singles.add(p.faults());
        }
        for (int position = 0; position < space.horizon(); position++) {
            for (Fault f : space.vocabulary()) {
                List<Fault> plan = new ArrayList<>();
                for (int i = 0; i < position; i++) {
                    plan.add(NoFault.INSTANCE);
                }
                plan.add(f);
                assertTrue(singles.contains(plan), plan.toString());
            }
        }
    }

    @Test
    void pairs_start_at_the_first_two_calls_and_stay_within_their_limit() {
        PlanSpace space = PlanSpace.of(scenario(POLICY, "plan", "patch"));
        List<PlanSpace.Plan> plans = take(space.plans(1), space.systematicSize());
        List<PlanSpace.Plan> pairs = plans.stream().filter(p -> p.phase() == PlanSpace.Phase.PAIRS).toList();
        assertEquals(List.of(TimeoutFault.INSTANCE, TimeoutFault.INSTANCE), pairs.get(0).faults());
        assertEquals(List.of(TimeoutFault.INSTANCE, new ServerErrorFault(503)), pairs.get(1).faults());
        assertTrue(pairs.size() <= PlanSpace.PAIR_LIMIT && pairs.size() > PlanSpace.PAIR_LIMIT / 2, "" + pairs.size());
        pairs.forEach(p -> assertEquals(2, PlanOrder.faults(p.faults()), p.toString()));
        assertEquals(pairs.size(), Set.copyOf(pairs).size());
        List<PlanSpace.Plan> triples = plans.stream().filter(p -> p.phase() == PlanSpace.Phase.TRIPLES).toList();
        assertEquals(List.of(TimeoutFault.INSTANCE, TimeoutFault.INSTANCE, TimeoutFault.INSTANCE),
                triples.get(0).faults());
        assertTrue(triples.size() <= PlanSpace.TRIPLE_LIMIT && !triples.isEmpty());
        triples.forEach(p -> assertEquals(3, PlanOrder.faults(p.faults()), p.toString()));
    }

    @Test
    void phases_come_in_order_and_the_random_phase_starts_after_the_systematic_plans() {
        PlanSpace space = PlanSpace.of(scenario(POLICY, "plan", "patch"));
        List<PlanSpace.Plan> plans = take(space.plans(1), space.systematicSize() + 1000);
        for (int i = 1; i < plans.size(); i++) {
            assertTrue(plans.get(i - 1).phase().compareTo(plans.get(i).phase()) <= 0, "at " + i);
        }
        assertEquals(PlanSpace.Phase.TRIPLES, plans.get((int) space.systematicSize() - 1).phase());
        assertEquals(PlanSpace.Phase.RANDOM, plans.get((int) space.systematicSize()).phase());
    }

    @Test
    void no_plan_ends_in_none_and_random_plans_stay_within_the_horizon() {
        PlanSpace space = PlanSpace.of(scenario(POLICY, "plan", "patch"));
        for (PlanSpace.Plan p : take(space.plans(7), space.systematicSize() + 5000)) {
            if (p.phase() != PlanSpace.Phase.EMPTY) {
                assertFalse(p.faults().isEmpty());
                assertFalse(p.faults().get(p.faults().size() - 1) instanceof NoFault, p::toString);
            }
            assertTrue(p.faults().size() <= space.horizon(), p::toString);
            assertTrue(space.vocabulary().containsAll(p.faults().stream()
                    .filter(f -> !(f instanceof NoFault)).toList()), p::toString);
        }
    }

    @Test
    void the_same_seed_gives_the_same_plans_and_another_seed_changes_only_the_random_ones() {
        PlanSpace space = PlanSpace.of(scenario(POLICY, "plan", "patch"));
        long n = space.systematicSize() + 2000;
        List<PlanSpace.Plan> one = take(space.plans(1), n);
        assertEquals(one, take(space.plans(1), n));
        List<PlanSpace.Plan> two = take(space.plans(2), n);
        int systematic = (int) space.systematicSize();
        assertEquals(one.subList(0, systematic), two.subList(0, systematic));
        assertNotEquals(one.subList(systematic, (int) n), two.subList(systematic, (int) n));
    }

    @Test
    void random_plans_often_repeat_an_entry_so_that_retries_pile_up() {
        PlanSpace space = PlanSpace.of(scenario(POLICY.withMaxAttempts(10), "plan"));
        Iterator<PlanSpace.Plan> plans = space.plans(1);
        take(plans, space.systematicSize());
        int runsOfFour = 0;
        for (PlanSpace.Plan p : take(plans, 1000)) {
            List<Fault> f = p.faults();
            if (f.size() >= 4 && f.subList(0, 4).stream().allMatch(x -> x.equals(TimeoutFault.INSTANCE))) {
                runsOfFour++;
            }
        }
        assertTrue(runsOfFour >= 3, "runs of four timeouts in 1000 random plans: " + runsOfFour);
    }

    static final dev.resilienceharness.tool.ToolDeclaration REFUND = new dev.resilienceharness.tool.ToolDeclaration(
            "refund", true, dev.resilienceharness.tool.ToolDeclaration.Replay.LIVE, null, null, Duration.ofSeconds(5),
            0);

    @Test
    void a_tool_is_faulted_with_every_kind_and_invalid_result_only_with_an_output_schema() {
        var schema = dev.resilienceharness.json.Json.readTree(
                "{\"type\":\"object\",\"required\":[\"id\"],\"properties\":{\"id\":{\"type\":\"string\"}}}"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        var lookup = new dev.resilienceharness.tool.ToolDeclaration("lookup", false,
                dev.resilienceharness.tool.ToolDeclaration.Replay.LIVE, schema, null, Duration.ofSeconds(30), 0);
        assertEquals(List.of("error", "timeout", "slow", "timeout_after_commit"),
                PlanSpace.Tool.of(REFUND, 1).faults().stream().map(dev.resilienceharness.tool.ToolFault::id).toList());
        assertEquals(dev.resilienceharness.tool.ToolFault.slow(Duration.ofSeconds(5)),
                PlanSpace.Tool.of(REFUND, 1).faults().get(2));
        assertEquals(List.of("error", "timeout", "slow", "invalid_result", "timeout_after_commit"),
                PlanSpace.Tool.of(lookup, 1).faults().stream().map(dev.resilienceharness.tool.ToolFault::id).toList());
        assertEquals(PlanSpace.MAX_TOOL_EXECUTIONS, PlanSpace.Tool.of(REFUND, 100).executions());
    }

    @Test
    void a_tool_an_mcp_server_serves_is_faulted_with_the_mcp_kinds_too() {
        var refund = new dev.resilienceharness.tool.ToolDeclaration("refund", true,
                dev.resilienceharness.tool.ToolDeclaration.Replay.LIVE, null, null, Duration.ofSeconds(5), "billing",
                0);
        assertEquals(List.of("error", "protocol_error", "timeout", "hang", "slow", "rate_limited", "tools_changed",
                "session_expired", "server_exit", "timeout_after_commit"),
                PlanSpace.Tool.of(refund, 1).faults().stream().map(dev.resilienceharness.tool.ToolFault::id).toList());
    }

    @Test
    void tool_faults_come_alone_after_the_singles_then_with_each_single_call_fault() {
        Scenario s = scenario(POLICY, "plan");
        PlanSpace plain = PlanSpace.of(s);
        PlanSpace space = PlanSpace.of(s, false, List.of(PlanSpace.Tool.of(REFUND, 2)));
        int singles = 2 * 4;
        int pairs = singles * space.horizon() * space.vocabulary().size();
        assertEquals(plain.systematicSize() + singles + pairs, space.systematicSize());
        List<PlanSpace.Plan> plans = take(space.plans(1), 1 + space.horizon() * space.vocabulary().size() + singles
                + pairs + 1);
        int at = 1 + space.horizon() * space.vocabulary().size();
        assertEquals(PlanSpace.Phase.SINGLES, plans.get(at - 1).phase());
        var timeoutAfterCommit = dev.resilienceharness.tool.ToolFault.of(
                dev.resilienceharness.tool.ToolFault.Kind.TIMEOUT_AFTER_COMMIT);
        var error = dev.resilienceharness.tool.ToolFault.of(dev.resilienceharness.tool.ToolFault.Kind.ERROR);
        assertEquals(new PlanSpace.Plan(PlanSpace.Phase.TOOL_SINGLES, List.of(), java.util.Map.of("refund",
                List.of(error))), plans.get(at));
        assertEquals(java.util.Map.of("refund", List.of(timeoutAfterCommit)), plans.get(at + 3).toolFaults());
        assertEquals(java.util.Map.of("refund", List.of(dev.resilienceharness.tool.ToolFault.NONE, error)),
                plans.get(at + 4).toolFaults());
        PlanSpace.Plan firstPair = plans.get(at + singles);
        assertEquals(PlanSpace.Phase.TOOL_PAIRS, firstPair.phase());
        assertEquals(List.of(TimeoutFault.INSTANCE), firstPair.faults());
        assertEquals(java.util.Map.of("refund", List.of(error)), firstPair.toolFaults());
        PlanSpace.Plan lastPair = plans.get(at + singles + pairs - 1);
        assertEquals(space.horizon(), lastPair.faults().size());
        assertEquals(CrashFault.INSTANCE, lastPair.faults().get(space.horizon() - 1));
        assertEquals(java.util.Map.of("refund", List.of(dev.resilienceharness.tool.ToolFault.NONE,
                timeoutAfterCommit)), lastPair.toolFaults());
        assertEquals(PlanSpace.Phase.PAIRS, plans.get(at + singles + pairs).phase());
    }

    @Test
    void without_tools_the_plans_are_the_same_as_ever() {
        Scenario s = scenario(POLICY, "plan", "patch");
        List<PlanSpace.Plan> before = take(PlanSpace.of(s).plans(3), 20_000);
        List<PlanSpace.Plan> now = take(PlanSpace.of(s, false, List.of()).plans(3), 20_000);
        assertEquals(before, now);
        assertTrue(now.stream().allMatch(p -> p.toolFaults().isEmpty()));
    }

    @Test
    void half_the_random_plans_carry_one_tool_fault() {
        PlanSpace space = PlanSpace.of(scenario(POLICY, "plan"), false, List.of(PlanSpace.Tool.of(REFUND, 1)));
        Iterator<PlanSpace.Plan> plans = space.plans(1);
        for (long i = 0; i < space.systematicSize(); i++) {
            plans.next();
        }
        List<PlanSpace.Plan> random = take(plans, 1000);
        long withTools = random.stream().filter(p -> !p.toolFaults().isEmpty()).count();
        assertTrue(withTools > 400 && withTools < 600, withTools + " of 1000");
        assertTrue(random.stream().allMatch(p -> p.phase() == PlanSpace.Phase.RANDOM));
        assertTrue(random.stream().filter(p -> !p.toolFaults().isEmpty())
                .allMatch(p -> space.toolSingles().contains(p.toolFaults())));
    }
}
