package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

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
import dev.resilienceharness.tool.BrokenResult;
import dev.resilienceharness.tool.ToolDeclaration;
import dev.resilienceharness.tool.ToolFault;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * The fault plans worth trying on one scenario's ops, in the order they are tried: the empty plan; every fault of
 * the vocabulary alone at every call position below the horizon; pairs of faults; triples; then seeded random
 * plans without end. Everything before the random phase is the same for every seed.
 *
 * <p>The vocabulary comes from the scenario's policy: {@code timeout}, {@code server_error} 503, {@code quota}
 * without a header and with a {@code Retry-After} of 0 and of just under and just over (1 ms) both
 * {@code max_retry_after} and {@code max_total_wait}, {@code bad_tool_call}, {@code slow_first_token} 1 ms over the
 * threshold, and {@code crash}. The horizon covers every call a sound loop may make: ops &times;
 * ({@code max_attempts} + {@code repair_attempts} + 2), at most {@value #MAX_HORIZON}.
 *
 * <p>Pairs and triples are bounded: position pairs are taken in order of their later position (then the earlier),
 * each with every two faults of the vocabulary, while the total stays within {@value #PAIR_LIMIT}; position
 * triples likewise within {@value #TRIPLE_LIMIT}, each with every three faults of a smaller vocabulary (one fault
 * per kind, plus the quota whose {@code Retry-After} of 0 a {@code retry_once} policy honours). Random plans have a
 * length up to the horizon and favour runs of the same entry, which is how waits and retries pile up.
 *
 * <p>With {@link Tool tools} to fault (the declared tools the scenario's fault-free run executed), two phases come
 * between the singles and the pairs: every tool fault alone at every execution of its tool ({@code error},
 * {@code timeout}, {@code {slow: <the tool's timeout>}}, {@code invalid_result} when the tool has an output schema
 * a result can break, and {@code timeout_after_commit}), then each of those with each single model-call fault,
 * within {@value #PAIR_LIMIT} plans; half the random plans carry one tool fault too. Without tools the phases are
 * empty and the order is as before.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class PlanSpace {

    /** The most call positions a plan covers. */
    public static final int MAX_HORIZON = 64;
    /** The most plans in the pair phase. */
    public static final int PAIR_LIMIT = 4096;
    /** The most plans in the triple phase. */
    public static final int TRIPLE_LIMIT = 4096;

    /** The most executions of one tool whose faults are tried. */
    public static final int MAX_TOOL_EXECUTIONS = 8;

    /** Where in the enumeration a plan comes from. */
    public enum Phase {
        EMPTY, SINGLES, TOOL_SINGLES, TOOL_PAIRS, PAIRS, TRIPLES, RANDOM
    }

    /**
     * One candidate fault plan.
     *
     * @param phase      the phase it belongs to
     * @param faults     the plan, one entry per transport call; never ends in {@code none}
     * @param toolFaults the plan's {@code tool_faults:}, by tool; each list never ends in {@code none}
     */
    public record Plan(Phase phase, List<Fault> faults, Map<String, List<ToolFault>> toolFaults) {
        public Plan {
            faults = List.copyOf(faults);
            Map<String, List<ToolFault>> copied = new LinkedHashMap<>();
            toolFaults.forEach((tool, list) -> copied.put(tool, List.copyOf(list)));
            toolFaults = Collections.unmodifiableMap(copied);
        }

        /** A plan of model-call faults only. */
        public Plan(Phase phase, List<Fault> faults) {
            this(phase, faults, Map.of());
        }
    }

    /**
     * A tool whose executions the plans fault.
     *
     * @param name       the declared tool
     * @param executions how many of its executions are faulted, one at a time: those of the fault-free run, at most
     *                   {@value #MAX_TOOL_EXECUTIONS}
     * @param faults     the tool faults tried on each
     */
    public record Tool(String name, int executions, List<ToolFault> faults) {
        public Tool {
            Objects.requireNonNull(name, "name");
            faults = List.copyOf(faults);
        }

        /**
         * The tool faults worth trying on {@code declaration}'s executions, simplest first; a tool an MCP server
         * serves meets the MCP kinds too, as its client would see them.
         */
        public static Tool of(ToolDeclaration declaration, int executions) {
            boolean mcp = declaration.mcp();
            List<ToolFault> faults = new ArrayList<>();
            faults.add(ToolFault.of(ToolFault.Kind.ERROR));
            if (mcp) {
                faults.add(ToolFault.of(ToolFault.Kind.PROTOCOL_ERROR));
            }
            faults.add(ToolFault.of(ToolFault.Kind.TIMEOUT));
            if (mcp) {
                faults.add(ToolFault.of(ToolFault.Kind.HANG));
            }
            faults.add(ToolFault.slow(declaration.timeout()));
            if (declaration.outputSchema() != null && BrokenResult.of(declaration.outputSchema()) != null) {
                faults.add(ToolFault.of(ToolFault.Kind.INVALID_RESULT));
            }
            if (mcp) {
                faults.add(ToolFault.of(ToolFault.Kind.RATE_LIMITED));
                faults.add(ToolFault.of(ToolFault.Kind.TOOLS_CHANGED));
                faults.add(ToolFault.of(ToolFault.Kind.SESSION_EXPIRED));
                faults.add(ToolFault.of(ToolFault.Kind.SERVER_EXIT));
            }
            faults.add(ToolFault.of(ToolFault.Kind.TIMEOUT_AFTER_COMMIT));
            return new Tool(declaration.name(), Math.max(1, Math.min(MAX_TOOL_EXECUTIONS, executions)), faults);
        }
    }

    private final List<Fault> vocabulary;
    private final List<Fault> tripleVocabulary;
    private final int horizon;
    private final List<int[]> pairPositions;
    private final List<int[]> triplePositions;
    /** Every single tool fault: one tool, faulted at one execution. */
    private final List<Map<String, List<ToolFault>>> toolSingles;
    private final long toolPairs;

    private PlanSpace(List<Fault> vocabulary, List<Fault> tripleVocabulary, int horizon, List<Tool> tools) {
        this.vocabulary = List.copyOf(vocabulary);
        this.tripleVocabulary = List.copyOf(tripleVocabulary);
        this.horizon = horizon;
        List<Map<String, List<ToolFault>>> singles = new ArrayList<>();
        for (Tool tool : tools) {
            for (int execution = 0; execution < tool.executions(); execution++) {
                for (ToolFault fault : tool.faults()) {
                    List<ToolFault> list = new ArrayList<>(Collections.nCopies(execution, ToolFault.NONE));
                    list.add(fault);
                    singles.add(Map.of(tool.name(), List.copyOf(list)));
                }
            }
        }
        this.toolSingles = List.copyOf(singles);
        this.toolPairs = Math.min(PAIR_LIMIT, (long) toolSingles.size() * horizon * vocabulary.size());
        this.pairPositions = positions(2, horizon, PAIR_LIMIT / (long) pow(vocabulary.size(), 2));
        this.triplePositions = positions(3, horizon, TRIPLE_LIMIT / (long) pow(tripleVocabulary.size(), 3));
    }

    /** The plan space of {@code scenario}'s ops under its policy. */
    public static PlanSpace of(Scenario scenario) {
        return of(scenario, false);
    }

    /**
     * The plan space of {@code scenario}'s ops under its policy; when an op's answer is {@code streamed}, the stream
     * faults too: a cut, an error event and a malformed event after the first event, a stall past the default read
     * timeout of 60 s, and a truncated tool call.
     */
    public static PlanSpace of(Scenario scenario, boolean streamed) {
        return of(scenario, streamed, List.of());
    }

    /** As {@link #of(Scenario, boolean)}, with the executions of {@code tools} faulted too. */
    public static PlanSpace of(Scenario scenario, boolean streamed, List<Tool> tools) {
        Policy policy = scenario.policy();
        Set<Fault> all = new LinkedHashSet<>();
        all.add(TimeoutFault.INSTANCE);
        all.add(new ServerErrorFault(ServerErrorFault.DEFAULT_STATUS));
        all.add(new QuotaFault(null));
        QuotaFault zero = new QuotaFault("0");
        all.add(zero);
        for (Duration bound : List.of(policy.quota().maxRetryAfter(), policy.maxTotalWait())) {
            long nanos = bound.toNanos();
            if (nanos > 1_000_000L) {
                all.add(new QuotaFault(seconds(nanos - 1_000_000L)));
            }
            all.add(new QuotaFault(seconds(nanos + 1_000_000L)));
        }
        all.add(BadToolCallFault.INSTANCE);
        all.add(new SlowFirstTokenFault(policy.slowFirstToken().threshold().toNanos() / 1_000_000L + 1));
        all.add(CrashFault.INSTANCE);
        if (streamed) {
            all.add(new dev.resilienceharness.fault.StreamCutFault(1));
            all.add(new dev.resilienceharness.fault.StreamStallFault(1, 60_001));
            all.add(new dev.resilienceharness.fault.MalformedEventFault(1));
            all.add(new dev.resilienceharness.fault.StreamErrorFault(1));
            all.add(dev.resilienceharness.fault.TruncatedToolCallFault.INSTANCE);
        }
        List<Fault> vocabulary = new ArrayList<>(all);
        List<Fault> triples = new ArrayList<>();
        List<String> kinds = new ArrayList<>();
        for (Fault f : vocabulary) {
            if (!kinds.contains(f.kind()) || f.equals(zero)) {
                kinds.add(f.kind());
                triples.add(f);
            }
        }
        // each model round of an op (policy.max_rounds) is owed its own retries and repairs
        long perOp = ((long) policy.maxAttempts() + policy.schema().repairAttempts() + 2) * policy.maxRounds();
        int horizon = (int) Math.max(1, Math.min(MAX_HORIZON, scenario.ops().size() * perOp));
        return new PlanSpace(vocabulary, triples, horizon, tools);
    }

    /** {@code nanos} as a {@code Retry-After} number of seconds: {@code 59.999}, {@code 60.001}, {@code 0}. */
    static String seconds(long nanos) {
        return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
    }

    /** Every fault tried alone and in pairs, simplest first. */
    public List<Fault> vocabulary() {
        return vocabulary;
    }

    /** The faults combined in triples. */
    public List<Fault> tripleVocabulary() {
        return tripleVocabulary;
    }

    /** The call positions plans cover: 0 to {@code horizon() - 1}. */
    public int horizon() {
        return horizon;
    }

    /** Every tool fault tried alone: one tool's {@code tool_faults:}, faulting one execution. */
    public List<Map<String, List<ToolFault>>> toolSingles() {
        return toolSingles;
    }

    /** How many plans come before the random phase (the same for every seed). */
    public long systematicSize() {
        return 1 + (long) horizon * vocabulary.size() + toolSingles.size() + toolPairs
                + (long) pairPositions.size() * pow(vocabulary.size(), 2)
                + (long) triplePositions.size() * pow(tripleVocabulary.size(), 3);
    }

    /** Every plan in order, lazily; the random phase, seeded by {@code seed}, never ends. */
    public Iterator<Plan> plans(long seed) {
        return new Plans(seed);
    }

    private static int pow(int base, int exp) {
        int r = 1;
        for (int i = 0; i < exp; i++) {
            r *= base;
        }
        return r;
    }

    /**
     * The first {@code limit} sets of {@code k} distinct positions below {@code horizon}, ordered by their last
     * position, then lexicographically.
     */
    private static List<int[]> positions(int k, int horizon, long limit) {
        List<int[]> out = new ArrayList<>();
        int[] current = new int[k];
        for (int last = k - 1; last < horizon && out.size() < limit; last++) {
            current[k - 1] = last;
            collect(current, 0, 0, last, limit, out);
        }
        return Collections.unmodifiableList(out);
    }

    private static void collect(int[] current, int index, int from, int last, long limit, List<int[]> out) {
        if (out.size() >= limit) {
            return;
        }
        if (index == current.length - 1) {
            out.add(current.clone());
            return;
        }
        for (int p = from; p < last - (current.length - 2 - index); p++) {
            current[index] = p;
            collect(current, index + 1, p + 1, last, limit, out);
        }
    }

    /** Walks the phases in order; the plan at each step is built from counters, so nothing is held in memory. */
    private final class Plans implements Iterator<Plan> {

        private final SplittableRandom random;
        private Phase phase = Phase.EMPTY;
        /** Index of the position set within the phase. */
        private int positionIndex;
        /** Index of the fault combination for the current position set. */
        private int combination;

        Plans(long seed) {
            this.random = new SplittableRandom(seed);
        }

        @Override
        public boolean hasNext() {
            return true;
        }

        @Override
        public Plan next() {
            while (true) {
                switch (phase) {
                    case EMPTY -> {
                        phase = Phase.SINGLES;
                        return new Plan(Phase.EMPTY, List.of());
                    }
                    case SINGLES -> {
                        if (positionIndex < horizon) {
                            return combined(Phase.SINGLES, new int[] {positionIndex}, vocabulary);
                        }
                        advance(Phase.TOOL_SINGLES);
                    }
                    case TOOL_SINGLES -> {
                        if (positionIndex < toolSingles.size()) {
                            return new Plan(Phase.TOOL_SINGLES, List.of(), toolSingles.get(positionIndex++));
                        }
                        advance(Phase.TOOL_PAIRS);
                    }
                    case TOOL_PAIRS -> {
                        if (positionIndex < toolPairs) {
                            // The tool fault varies fastest, then the model fault, then its position: early calls
                            // first, as in the singles.
                            int i = positionIndex++;
                            int tools = toolSingles.size();
                            int faults = vocabulary.size();
                            Fault[] plan = new Fault[i / (tools * faults) + 1];
                            Arrays.fill(plan, NoFault.INSTANCE);
                            plan[plan.length - 1] = vocabulary.get(i / tools % faults);
                            return new Plan(Phase.TOOL_PAIRS, List.of(plan), toolSingles.get(i % tools));
                        }
                        advance(Phase.PAIRS);
                    }
                    case PAIRS -> {
                        if (positionIndex < pairPositions.size()) {
                            return combined(Phase.PAIRS, pairPositions.get(positionIndex), vocabulary);
                        }
                        advance(Phase.TRIPLES);
                    }
                    case TRIPLES -> {
                        if (positionIndex < triplePositions.size()) {
                            return combined(Phase.TRIPLES, triplePositions.get(positionIndex), tripleVocabulary);
                        }
                        advance(Phase.RANDOM);
                    }
                    case RANDOM -> {
                        List<Fault> plan = randomPlan();
                        // Drawn only with tools, so that a scenario without them sees the same random plans as ever.
                        if (!toolSingles.isEmpty() && random.nextBoolean()) {
                            return new Plan(Phase.RANDOM, plan, toolSingles.get(random.nextInt(toolSingles.size())));
                        }
                        return new Plan(Phase.RANDOM, plan);
                    }
                    default -> throw new NoSuchElementException();
                }
            }
        }

        private void advance(Phase to) {
            phase = to;
            positionIndex = 0;
            combination = 0;
        }

        /** The current combination of {@code faults} at {@code positions}; the last position's fault varies fastest. */
        private Plan combined(Phase of, int[] positions, List<Fault> faults) {
            int n = faults.size();
            int last = positions[positions.length - 1];
            Fault[] plan = new Fault[last + 1];
            Arrays.fill(plan, NoFault.INSTANCE);
            int rest = combination;
            for (int i = positions.length - 1; i >= 0; i--) {
                plan[positions[i]] = faults.get(rest % n);
                rest /= n;
            }
            if (++combination == pow(n, positions.length)) {
                combination = 0;
                positionIndex++;
            }
            return new Plan(of, List.of(plan));
        }

        private List<Fault> randomPlan() {
            int length = 1 + random.nextInt(horizon);
            List<Fault> plan = new ArrayList<>(length);
            Fault previous = null;
            for (int i = 0; i < length; i++) {
                Fault f;
                if (previous != null && random.nextBoolean()) {
                    f = previous;
                } else if (random.nextInt(3) == 0) {
                    f = NoFault.INSTANCE;
                } else {
                    f = vocabulary.get(random.nextInt(vocabulary.size()));
                }
                plan.add(f);
                previous = f;
            }
            while (!plan.isEmpty() && plan.get(plan.size() - 1) instanceof NoFault) {
                plan.remove(plan.size() - 1);
            }
            if (plan.isEmpty()) {
                plan.add(vocabulary.get(random.nextInt(vocabulary.size())));
            }
            return plan;
        }
    }
}
