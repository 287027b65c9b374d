package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Which of two fault plans is the simpler counterexample: fewer faults (entries other than {@code none}), then a
 * shorter list, then faults at earlier positions, then simpler faults entry by entry. A fault is simpler when its
 * kind comes earlier in faults.md's list ({@link Fault#kinds()}: none, timeout, server_error, quota, bad_tool_call,
 * slow_first_token, crash), and within a kind when its setting is lower: a quota without a header before one with,
 * a smaller {@code retry_after}, {@code elapsed_ms} or status.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class PlanOrder implements Comparator<List<Fault>> {

    /** The one instance. */
    public static final PlanOrder INSTANCE = new PlanOrder();

    /** Faults by simplicity, as described above. */
    public static final Comparator<Fault> FAULTS = PlanOrder::compareFaults;

    private static final Pattern SECONDS = Pattern.compile("\\+?(\\d+(\\.\\d*)?|\\.\\d+)");

    private PlanOrder() {
    }

    @Override
    public int compare(List<Fault> a, List<Fault> b) {
        int c = Integer.compare(faults(a), faults(b));
        if (c != 0) {
            return c;
        }
        c = Integer.compare(a.size(), b.size());
        if (c != 0) {
            return c;
        }
        c = comparePositions(a, b);
        if (c != 0) {
            return c;
        }
        for (int i = 0; i < a.size(); i++) {
            c = compareFaults(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** How many entries of {@code plan} are not {@code none}. */
    public static int faults(List<Fault> plan) {
        int n = 0;
        for (Fault f : plan) {
            if (!(f instanceof NoFault)) {
                n++;
            }
        }
        return n;
    }

    /** Compares the positions of the faults, first fault first: the plan whose faults come earlier is simpler. */
    private static int comparePositions(List<Fault> a, List<Fault> b) {
        int i = 0;
        int j = 0;
        while (true) {
            while (i < a.size() && a.get(i) instanceof NoFault) {
                i++;
            }
            while (j < b.size() && b.get(j) instanceof NoFault) {
                j++;
            }
            if (i >= a.size() || j >= b.size()) {
                return 0;
            }
            if (i != j) {
                return Integer.compare(i, j);
            }
            i++;
            j++;
        }
    }

    private static int compareFaults(Fault a, Fault b) {
        int c = Integer.compare(Fault.kinds().indexOf(a.kind()), Fault.kinds().indexOf(b.kind()));
        if (c != 0) {
            return c;
        }
        if (a instanceof QuotaFault qa && b instanceof QuotaFault qb) {
            return compareRetryAfter(qa.retryAfter(), qb.retryAfter());
        }
        if (a instanceof ServerErrorFault sa && b instanceof ServerErrorFault sb) {
            return Integer.compare(sa.status(), sb.status());
        }
        if (a instanceof SlowFirstTokenFault sa && b instanceof SlowFirstTokenFault sb) {
            return Long.compare(sa.elapsedMs(), sb.elapsedMs());
        }
        return 0;
    }

    /** No header first, then numbers of seconds by value, then any other text (dates) by text. */
    private static int compareRetryAfter(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        BigDecimal na = seconds(a);
        BigDecimal nb = seconds(b);
        if (na != null && nb != null) {
            int c = na.compareTo(nb);
            return c != 0 ? c : a.compareTo(b);
        }
        if (na != null || nb != null) {
            return na != null ? -1 : 1;
        }
        return a.compareTo(b);
    }

    /** The seconds a {@code Retry-After} text states as a plain non-negative number, else {@code null}. */
    static BigDecimal seconds(String retryAfter) {
        String text = retryAfter.strip();
        return SECONDS.matcher(text).matches() ? new BigDecimal(text.startsWith("+") ? text.substring(1) : text)
                : null;
    }
}
