package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanOrderTest {

    static final Fault NONE = NoFault.INSTANCE;
    static final Fault TIMEOUT = TimeoutFault.INSTANCE;
    static final Fault CRASH = CrashFault.INSTANCE;

    static void simpler(List<Fault> a, List<Fault> b) {
        assertTrue(PlanOrder.INSTANCE.compare(a, b) < 0, a + " should be simpler than " + b);
        assertTrue(PlanOrder.INSTANCE.compare(b, a) > 0, b + " should be less simple than " + a);
    }

    @Test
    void fewer_faults_come_first_however_long_the_plan() {
        simpler(List.of(NONE, NONE, NONE, CRASH), List.of(TIMEOUT, TIMEOUT));
    }

    @Test
    void with_as_many_faults_the_shorter_plan_comes_first() {
        simpler(List.of(CRASH), List.of(NONE, TIMEOUT));
    }

    @Test
    void with_as_many_faults_and_entries_earlier_faults_come_first() {
        simpler(List.of(CRASH, NONE, TIMEOUT), List.of(NONE, TIMEOUT, TIMEOUT));
    }

    @Test
    void then_faults_compare_in_the_order_the_spec_lists_the_kinds() {
        List<Fault> shuffled = new ArrayList<>(List.of(CRASH, new SlowFirstTokenFault(5), BadToolCallFault.INSTANCE,
                new QuotaFault(null), new ServerErrorFault(503), TIMEOUT, NONE));
        shuffled.sort(PlanOrder.FAULTS);
        assertEquals(List.of(NONE, TIMEOUT, new ServerErrorFault(503), new QuotaFault(null), BadToolCallFault.INSTANCE,
                new SlowFirstTokenFault(5), CRASH), shuffled);
    }

    @Test
    void within_a_kind_the_lower_setting_comes_first() {
        List<Fault> quotas = new ArrayList<>(List.of(new QuotaFault("Wed, 01 Jan 2026 00:00:05 GMT"),
                new QuotaFault("10"), new QuotaFault("2"), new QuotaFault("0.5"), new QuotaFault("0"),
                new QuotaFault(null)));
        quotas.sort(PlanOrder.FAULTS);
        assertEquals(List.of(new QuotaFault(null), new QuotaFault("0"), new QuotaFault("0.5"), new QuotaFault("2"),
                new QuotaFault("10"), new QuotaFault("Wed, 01 Jan 2026 00:00:05 GMT")), quotas);
        simpler(List.of(new SlowFirstTokenFault(2001)), List.of(new SlowFirstTokenFault(9000)));
        simpler(List.of(new ServerErrorFault(500)), List.of(new ServerErrorFault(503)));
    }

    @Test
    void equal_plans_compare_equal() {
        assertEquals(0, PlanOrder.INSTANCE.compare(List.of(NONE, new QuotaFault("2")), List.of(NONE,
                new QuotaFault("2"))));
        assertEquals(2, PlanOrder.faults(List.of(NONE, TIMEOUT, NONE, CRASH)));
    }
}
