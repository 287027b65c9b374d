package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import org.apiguardian.api.API;

/**
 * Shrinks a fault plan that breaks an invariant to a minimal one that still breaks it, delta-debugging style. The
 * moves, each tried until none helps: remove a run of entries (halves first, down to single entries), replace a
 * fault by {@code none}, move a fault one place earlier over a {@code none}, replace a fault by a simpler one from
 * the vocabulary, swap two neighbouring faults to put the simpler first, and lower a {@code retry_after} (in milliseconds) or an {@code elapsed_ms} to 0 or, by binary
 * search, to the lowest value that still fails. Trailing {@code none}s are dropped: they change nothing.
 *
 * <p>Every accepted move makes the plan strictly simpler by {@link PlanOrder}, so shrinking ends, and the same
 * input always gives the same result. The result is 1-minimal: no single removal, replacement, move, swap or
 * lowering by one unit still fails. The oracle is asked each plan at most once.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Shrinker {

    private final Predicate<List<Fault>> fails;
    private final List<Fault> vocabulary;
    private final Map<List<Fault>, Boolean> asked = new HashMap<>();

    /**
     * @param fails      whether a plan still breaks the invariant being shrunk for (the same invariant throughout)
     * @param vocabulary the faults an entry may be replaced by when they are simpler
     */
    public Shrinker(Predicate<List<Fault>> fails, List<Fault> vocabulary) {
        this.fails = fails;
        this.vocabulary = List.copyOf(vocabulary);
    }

    /** How many distinct plans the oracle was asked about. */
    public int asked() {
        return asked.size();
    }

    /**
     * The minimal plan.
     *
     * @throws IllegalArgumentException when {@code plan} itself does not fail
     */
    public List<Fault> shrink(List<Fault> plan) {
        List<Fault> current = trimmed(plan);
        if (!test(current)) {
            throw new IllegalArgumentException("the plan to shrink does not fail: " + plan);
        }
        while (true) {
            List<Fault> next = removeRuns(current);
            if (next == null) {
                next = replaceByNone(current);
            }
            if (next == null) {
                next = moveEarlier(current);
            }
            if (next == null) {
                next = simplerFault(current);
            }
            if (next == null) {
                next = simplerFirst(current);
            }
            if (next == null) {
                next = lowerValue(current);
            }
            if (next == null) {
                return current;
            }
            current = next;
        }
    }

    private boolean test(List<Fault> plan) {
        return asked.computeIfAbsent(List.copyOf(plan), fails::test);
    }

    /** The first plan without a run of entries that still fails: the longest runs first, from the front. */
    private List<Fault> removeRuns(List<Fault> plan) {
        for (int size = Integer.highestOneBit(Math.max(1, plan.size())); size >= 1; size /= 2) {
            for (int start = 0; start + size <= plan.size(); start++) {
                List<Fault> candidate = new ArrayList<>(plan.subList(0, start));
                candidate.addAll(plan.subList(start + size, plan.size()));
                if (accept(candidate)) {
                    return trimmed(candidate);
                }
            }
        }
        return null;
    }

    private List<Fault> replaceByNone(List<Fault> plan) {
        for (int i = 0; i < plan.size(); i++) {
            if (!(plan.get(i) instanceof NoFault)) {
                List<Fault> candidate = with(plan, i, NoFault.INSTANCE);
                if (accept(candidate)) {
                    return trimmed(candidate);
                }
            }
        }
        return null;
    }

    private List<Fault> moveEarlier(List<Fault> plan) {
        for (int i = 1; i < plan.size(); i++) {
            if (!(plan.get(i) instanceof NoFault) && plan.get(i - 1) instanceof NoFault) {
                List<Fault> candidate = with(with(plan, i - 1, plan.get(i)), i, NoFault.INSTANCE);
                if (accept(candidate)) {
                    return trimmed(candidate);
                }
            }
        }
        return null;
    }

    /** Replaces a fault by a simpler one of the vocabulary, simplest first. */
    private List<Fault> simplerFault(List<Fault> plan) {
        List<Fault> sorted = new ArrayList<>(vocabulary);
        sorted.sort(PlanOrder.FAULTS);
        for (int i = 0; i < plan.size(); i++) {
            for (Fault simpler : sorted) {
                if (PlanOrder.FAULTS.compare(simpler, plan.get(i)) >= 0) {
                    break;
                }
                if (simpler instanceof NoFault) {
                    continue;
                }
                List<Fault> candidate = with(plan, i, simpler);
                if (accept(candidate)) {
                    return trimmed(candidate);
                }
            }
        }
        return null;
    }

    /** Swaps two neighbouring faults when the later one is simpler, so that simpler faults come first. */
    private List<Fault> simplerFirst(List<Fault> plan) {
        for (int i = 1; i < plan.size(); i++) {
            Fault earlier = plan.get(i - 1);
            Fault later = plan.get(i);
            if (!(earlier instanceof NoFault) && PlanOrder.FAULTS.compare(later, earlier) < 0) {
                List<Fault> candidate = with(with(plan, i - 1, later), i, earlier);
                if (accept(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    private List<Fault> lowerValue(List<Fault> plan) {
        for (int i = 0; i < plan.size(); i++) {
            Fault f = plan.get(i);
            if (f instanceof QuotaFault q && q.retryAfter() != null) {
                BigDecimal seconds = PlanOrder.seconds(q.retryAfter());
                if (seconds == null) {
                    continue;
                }
                long millis = seconds.movePointRight(3).setScale(0, RoundingMode.FLOOR).longValue();
                List<Fault> lowered = lowest(plan, i, millis, ms -> new QuotaFault(PlanSpace.seconds(ms * 1_000_000L)));
                if (lowered != null) {
                    return lowered;
                }
            } else if (f instanceof SlowFirstTokenFault s) {
                List<Fault> lowered = lowest(plan, i, s.elapsedMs(), SlowFirstTokenFault::new);
                if (lowered != null) {
                    return lowered;
                }
            }
        }
        return null;
    }

    /**
     * The plan with entry {@code i} at the lowest value in [0, {@code high}] that still fails, found by trying 0 and
     * then by binary search; {@code null} when that is the entry as it stands.
     */
    private List<Fault> lowest(List<Fault> plan, int i, long high, LongFunction<Fault> at) {
        if (high < 0) {
            return null;
        }
        List<Fault> best = with(plan, i, at.apply(high));
        if (!best.equals(plan) && !accept(best)) {
            return null;
        }
        long hi = high;
        long lo = -1;
        if (hi > 0) {
            List<Fault> zero = with(plan, i, at.apply(0));
            if (accept(zero)) {
                return zero;
            }
            lo = 0;
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            List<Fault> candidate = with(plan, i, at.apply(mid));
            if (accept(candidate)) {
                hi = mid;
                best = candidate;
            } else {
                lo = mid;
            }
        }
        return best.equals(plan) ? null : best;
    }

    /** Whether {@code candidate}, trailing {@code none}s dropped, still fails. */
    private boolean accept(List<Fault> candidate) {
        return test(trimmed(candidate));
    }

    private static List<Fault> with(List<Fault> plan, int i, Fault f) {
        List<Fault> copy = new ArrayList<>(plan);
        copy.set(i, f);
        return copy;
    }

    private static List<Fault> trimmed(List<Fault> plan) {
        int end = plan.size();
        while (end > 0 && plan.get(end - 1) instanceof NoFault) {
            end--;
        }
        return List.copyOf(plan.subList(0, end));
    }
}
