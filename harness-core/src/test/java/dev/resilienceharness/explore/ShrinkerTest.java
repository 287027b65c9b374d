package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The shrinker against oracles written out here, so that the minimal plan of each is known. */
class ShrinkerTest {

    static final Fault NONE = NoFault.INSTANCE;
    static final Fault TIMEOUT = TimeoutFault.INSTANCE;
    static final Fault CRASH = CrashFault.INSTANCE;
    static final Fault QUOTA = new QuotaFault(null);
    static final Fault SERVER = new ServerErrorFault(503);
    static final Fault BAD = BadToolCallFault.INSTANCE;
    static final List<Fault> VOCABULARY = PlanSpace.of(new Scenario("s", List.of("plan"), List.of(),
            Expectations.NONE, Policy.defaults(Duration.ofSeconds(30)), 0)).vocabulary();

    static List<Fault> shrink(Predicate<List<Fault>> fails, List<Fault> plan) {
        return new Shrinker(fails, VOCABULARY).shrink(plan);
    }

    static long transients(List<Fault> plan) {
        return plan.stream().filter(f -> f instanceof TimeoutFault || f instanceof ServerErrorFault).count();
    }

    @Test
    void a_run_of_transient_faults_shrinks_to_exactly_as_many_timeouts_as_needed() {
        List<Fault> plan = List.of(CRASH, SERVER, NONE, TIMEOUT, QUOTA, SERVER, BAD, TIMEOUT, NONE, NONE);
        assertEquals(List.of(TIMEOUT, TIMEOUT, TIMEOUT), shrink(p -> transients(p) >= 3, plan));
    }

    @Test
    void simpler_kinds_come_first_when_the_order_does_not_matter() {
        Predicate<List<Fault>> crashAndBadCall = p -> p.contains(CRASH) && p.contains(BAD);
        assertEquals(List.of(BAD, CRASH), shrink(crashAndBadCall, List.of(CRASH, NONE, BAD)));
    }

    @Test
    void a_single_fault_moves_as_early_as_the_oracle_allows_and_no_earlier() {
        Predicate<List<Fault>> crashAfterTheFirstCall = p -> p.indexOf(CRASH) >= 1;
        assertEquals(List.of(NONE, CRASH), shrink(crashAfterTheFirstCall, List.of(TIMEOUT, NONE, BAD, NONE, CRASH)));
    }

    @Test
    void a_retry_after_is_lowered_to_the_smallest_value_that_still_fails() {
        Predicate<List<Fault>> overAMinute = p -> p.stream().anyMatch(f -> f instanceof QuotaFault q
                && q.retryAfter() != null && PlanOrder.seconds(q.retryAfter()) != null
                && PlanOrder.seconds(q.retryAfter()).compareTo(BigDecimal.valueOf(60)) > 0);
        assertEquals(List.of(new QuotaFault("60.001")),
                shrink(overAMinute, List.of(NONE, new QuotaFault("3600"), CRASH)));
    }

    @Test
    void a_quota_that_fails_without_its_header_loses_it() {
        Predicate<List<Fault>> anyQuota = p -> p.stream().anyMatch(f -> f instanceof QuotaFault);
        assertEquals(List.of(QUOTA), shrink(anyQuota, List.of(TIMEOUT, new QuotaFault("30.001"))));
    }

    @Test
    void elapsed_ms_is_lowered_to_just_over_the_threshold() {
        Predicate<List<Fault>> slow = p -> p.stream().anyMatch(f -> f instanceof SlowFirstTokenFault s
                && s.elapsedMs() > 2000);
        assertEquals(List.of(new SlowFirstTokenFault(2001)), shrink(slow, List.of(new SlowFirstTokenFault(9000))));
    }

    @Test
    void a_fault_becomes_a_simpler_kind_when_that_still_fails() {
        Predicate<List<Fault>> anyFault = p -> PlanOrder.faults(p) > 0;
        assertEquals(List.of(TIMEOUT), shrink(anyFault, List.of(NONE, NONE, CRASH)));
    }

    @Test
    void a_plan_that_fails_anyway_shrinks_to_no_faults_at_all() {
        assertEquals(List.of(), shrink(p -> true, List.of(TIMEOUT, CRASH, QUOTA)));
    }

    @Test
    void a_plan_that_does_not_fail_is_refused() {
        assertThrows(IllegalArgumentException.class, () -> shrink(p -> false, List.of(TIMEOUT)));
    }

    @Test
    void the_oracle_is_asked_about_each_plan_once_and_the_result_is_the_same_every_time() {
        Map<List<Fault>, Integer> calls = new HashMap<>();
        Predicate<List<Fault>> fails = p -> {
            calls.merge(p, 1, Integer::sum);
            return transients(p) >= 2 && p.contains(CRASH);
        };
        List<Fault> plan = List.of(SERVER, CRASH, QUOTA, TIMEOUT, SERVER, BAD, CRASH, TIMEOUT);
        Shrinker shrinker = new Shrinker(fails, VOCABULARY);
        List<Fault> first = shrinker.shrink(plan);
        assertEquals(List.of(TIMEOUT, TIMEOUT, CRASH), first);
        calls.values().forEach(n -> assertEquals(1, n));
        assertEquals(calls.size(), shrinker.asked());
        assertEquals(first, shrink(fails, plan));
    }

    /** Whatever the oracle, the result still fails and no single simplification of it does. */
    @Test
    void results_are_one_minimal() {
        SplittableRandom random = new SplittableRandom(42);
        List<Predicate<List<Fault>>> oracles = List.of(
                p -> transients(p) >= 2,
                p -> p.indexOf(CRASH) >= 2,
                p -> p.contains(QUOTA) && p.indexOf(QUOTA) < p.lastIndexOf(TIMEOUT),
                p -> p.stream().filter(f -> f instanceof QuotaFault).count() >= 2,
                p -> PlanOrder.faults(p) >= 3 && p.contains(BAD));
        for (int round = 0; round < 300; round++) {
            List<Fault> plan = new ArrayList<>();
            int length = 1 + random.nextInt(12);
            for (int i = 0; i < length; i++) {
                plan.add(random.nextInt(3) == 0 ? NONE : VOCABULARY.get(random.nextInt(VOCABULARY.size())));
            }
            for (Predicate<List<Fault>> fails : oracles) {
                if (!fails.test(trim(plan))) {
                    continue;
                }
                List<Fault> minimal = shrink(fails, plan);
                assertTrue(fails.test(minimal));
                assertTrue(PlanOrder.INSTANCE.compare(minimal, trim(plan)) <= 0);
                for (List<Fault> smaller : oneStepSimpler(minimal)) {
                    assertFalse(fails.test(trim(smaller)), plan + " shrank to " + minimal + " but " + smaller
                            + " fails too");
                }
            }
        }
    }

    static List<List<Fault>> oneStepSimpler(List<Fault> plan) {
        List<List<Fault>> out = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            List<Fault> removed = new ArrayList<>(plan);
            removed.remove(i);
            out.add(removed);
            if (!(plan.get(i) instanceof NoFault)) {
                for (Fault simpler : VOCABULARY) {
                    if (PlanOrder.FAULTS.compare(simpler, plan.get(i)) < 0) {
                        List<Fault> replaced = new ArrayList<>(plan);
                        replaced.set(i, simpler);
                        out.add(replaced);
                    }
                }
                List<Fault> none = new ArrayList<>(plan);
                none.set(i, NONE);
                out.add(none);
                if (i > 0 && plan.get(i - 1) instanceof NoFault) {
                    List<Fault> earlier = new ArrayList<>(plan);
                    earlier.set(i - 1, plan.get(i));
                    earlier.set(i, NONE);
                    out.add(earlier);
                }
                if (i > 0 && !(plan.get(i - 1) instanceof NoFault)
                        && PlanOrder.FAULTS.compare(plan.get(i), plan.get(i - 1)) < 0) {
                    List<Fault> swapped = new ArrayList<>(plan);
                    swapped.set(i - 1, plan.get(i));
                    swapped.set(i, plan.get(i - 1));
                    out.add(swapped);
                }
            }
        }
        return out;
    }

    static List<Fault> trim(List<Fault> plan) {
        int end = plan.size();
        while (end > 0 && plan.get(end - 1) instanceof NoFault) {
            end--;
        }
        return plan.subList(0, end);
    }
}
