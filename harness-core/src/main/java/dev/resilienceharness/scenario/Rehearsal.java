package dev.resilienceharness.scenario;

import static org.apiguardian.api.API.Status.MAINTAINED;

import dev.resilienceharness.concurrent.Indices;
import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.ToolRecordings;
import dev.resilienceharness.clock.RealSleepWatch;
import dev.resilienceharness.clock.RunawayLoop;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.Durations;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.invariant.BoundedWaiting;
import dev.resilienceharness.invariant.CallBudget;
import dev.resilienceharness.invariant.ExpectedOutcomes;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.LimitRetries;
import dev.resilienceharness.invariant.TokenBudget;
import dev.resilienceharness.invariant.PartialWorkSurvival;
import dev.resilienceharness.invariant.ReplayDeterminism;
import dev.resilienceharness.invariant.ScenarioInvariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.limits.Limiter;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.MemoryJournal;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.ProcessRecycled;
import dev.resilienceharness.transport.ToolCallSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs a config's scenarios against a loop and checks them: the engine behind every goal, the JUnit engine
 * and plain-Java use. Prepared once (every op's cassette read and its tool calls checked), then safe to run
 * scenarios from several threads. Cassettes are streamed: a run reads the answers it needs, and only a bounded number
 * of them is kept.
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class Rehearsal {

    /** The scenario-run invariants, in report order. */
    public static final Set<Invariant> RUN_INVARIANTS = EnumSet.of(Invariant.BUDGET, Invariant.DETERMINISM,
            Invariant.PARTIAL_WORK, Invariant.BOUNDED_WAIT, Invariant.EXPECTATIONS);

    /** Every invariant a scenario run can be judged by: {@link #RUN_INVARIANTS} and {@code side_effects}. */
    public static final Set<Invariant> TOOL_RUN_INVARIANTS = withSideEffects();

    private static Set<Invariant> withSideEffects() {
        Set<Invariant> all = EnumSet.copyOf(RUN_INVARIANTS);
        all.add(Invariant.SIDE_EFFECTS);
        return java.util.Collections.unmodifiableSet(all);
    }

    /**
     * The invariants {@code config}'s scenario runs are judged by: {@link #RUN_INVARIANTS}, and {@code side_effects}
     * when it declares {@code tools:} (docs tools.md) or {@code mcp_servers:} (docs mcp.md), the only tools that
     * invariant judges.
     */
    public static Set<Invariant> runInvariants(HarnessConfig config) {
        return config.declaresTools() ? TOOL_RUN_INVARIANTS : RUN_INVARIANTS;
    }

    private final HarnessConfig config;
    private final LoopFactory loops;
    private final VolatilePaths volatilePaths;
    private final Map<String, ObjectNode> templates;
    /** The config's scenarios' ops with their prepared requests, by the identity of the scenario's list of ops. */
    private final Map<List<String>, RunOps> runOps;
    private final Lookup lookup;
    private final List<ScenarioInvariant> runChecks;
    private final ReplayDeterminism determinism;
    /** What answers the executions of {@code replay: recorded} tools, read as runs need them. */
    private final ToolRecordings toolRecordings;
    /** The MCP servers' sessions, read as runs reach them. */
    private final McpCassettes mcpCassettes;
    /** How long a run of a team's loop may make no call and no wait ({@link StallBound}); zero: not watched. */
    private volatile Duration stallBound;

    /** @param exchanges each op once, in the order the scenarios first name them */
    private Rehearsal(HarnessConfig config, LoopFactory loops, VolatilePaths volatilePaths,
            List<OpExchange> exchanges, RecordedAnswers answers) {
        this.config = config;
        this.loops = loops;
        this.volatilePaths = volatilePaths;
        this.templates = new HashMap<>();
        for (OpExchange e : exchanges) {
            templates.put(e.op(), e.request());
        }
        this.lookup = new Lookup(exchanges, answers, volatilePaths, config.cassettes(),
                HarnessConfig.BUILTIN_LOOP.equals(config.loop()) ? null : CassetteMiss.recordThroughLoop(config.loop()));
        // A scenario made from one of these (explore's, with other faults or limits) keeps its list, and so its ops.
        this.runOps = new IdentityHashMap<>();
        for (Scenario s : config.scenarios()) {
            runOps.computeIfAbsent(s.ops(), ops -> RunOps.prepared(ops, templates::get, lookup::ofTemplate));
        }
        this.runChecks = List.of(new CallBudget(config.budget()), new LimitRetries(), new TokenBudget(config.budget()),
                new PartialWorkSurvival(), new BoundedWaiting(),
                new ExpectedOutcomes(),
                new dev.resilienceharness.invariant.DuplicatedText(),
                new dev.resilienceharness.invariant.ToolBudget(config.budget()),
                new dev.resilienceharness.invariant.SideEffects(config.tools()));
        this.determinism = new ReplayDeterminism(volatilePaths);
        this.toolRecordings = ToolRecordings.replaying(config.cassettes());
        this.mcpCassettes = new McpCassettes(config.cassettes());
        this.stallBound = StallBound.fromSystemProperties();
    }

    /**
     * Has the next runs read the MCP servers' sessions from disk again, after a recording wrote new ones: a later
     * scenario is then answered by what an earlier one recorded.
     */
    void mcpSessionsWritten() {
        mcpCassettes.reread();
    }

    /**
     * Reads the cassette of every op of every scenario and checks its tool calls once, on all cores. The answers read
     * from up to {@value RecordedAnswers#CAPACITY_BYTES} bytes of cassettes are kept in memory; those of a larger
     * config are read again when runs need them, so that its cassettes are streamed rather than all held at once.
     *
     * @throws SetupException listing every op without a usable cassette, by yaml file, line and key
     */
    public static Rehearsal prepare(HarnessConfig config, LoopFactory loops) throws SetupException {
        return prepare(config, loops, Integer.MAX_VALUE, RecordedAnswers.CAPACITY_BYTES, false);
    }

    /**
     * The rehearsal of {@code config} with the loop its {@code loop:} names, loaded from {@code loader}, as the goals
     * and the test engine prepare it: {@link #prepareVerified} when {@code verifiedFingerprints} is given (the check
     * goal has verified every op's cassette, and {@code kept} may hold their answers), else {@link #prepare}.
     *
     * @throws SetupException listing every op without a usable cassette, or saying why the loop cannot be used
     */
    public static Rehearsal forLoopOf(HarnessConfig config, ClassLoader loader, Map<String, String> verifiedFingerprints,
            KeptAnswers kept) throws SetupException {
        LoopFactory loops;
        try {
            loops = LoopFactory.forName(config.loop(), loader);
        } catch (LoopFactory.LoopNotUsable e) {
            throw new SetupException(List.of(config.file().toAbsolutePath().normalize() + ": loop: "
                    + e.getMessage()));
        }
        return verifiedFingerprints != null ? prepareVerified(config, loops, verifiedFingerprints, kept)
                : prepare(config, loops);
    }

    /**
     * As {@link #prepare(HarnessConfig, LoopFactory)}, keeping the recorded answers of up to {@code answersKept} ops
     * in memory: enough for all of them makes runs read no file at all, for a rehearsal run many times over.
     */
    public static Rehearsal prepare(HarnessConfig config, LoopFactory loops, int answersKept) throws SetupException {
        return prepare(config, loops, answersKept, Long.MAX_VALUE, false);
    }

    /** @param recording an op whose calls come from the loop's SDK may have no cassette yet ({@link LoopRecorder}) */
    static Rehearsal prepare(HarnessConfig config, LoopFactory loops, int answersKept, long bytesKept,
            boolean recording) throws SetupException {
        VolatilePaths volatilePaths = VolatilePaths.of(config.volatilePaths());
        CassetteStore store = CassetteStore.replaying(config.cassettes(), volatilePaths);
        CassetteReader reader = new CassetteReader(config.cassettes(), volatilePaths);
        RecordedAnswers answers = new RecordedAnswers(reader, new ToolCallSchema(), Math.max(1, answersKept),
                bytesKept, null);
        // Each op once, where it first appears: that is where a problem with its cassette is reported.
        List<String> ops = new ArrayList<>();
        List<String> wheres = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int si = 0; si < config.scenarios().size(); si++) {
            Scenario s = config.scenarios().get(si);
            for (int i = 0; i < s.ops().size(); i++) {
                if (seen.add(s.ops().get(i))) {
                    ops.add(s.ops().get(i));
                    wheres.add(where(config, s, si, i));
                }
            }
        }
        OpExchange[] exchanges = new OpExchange[ops.size()];
        String[] problems = new String[ops.size()];
        CassetteMiss[] misses = new CassetteMiss[ops.size()];
        Indices.forEach(ops.size(), k -> {
            String op = ops.get(k);
            ObjectNode request = config.sharedRequest(op);
            try {
                Path file = store.fileFor(store.fingerprint(request));
                // A missing file is a miss, which the store explains (the nearest recorded request).
                byte[] content = Files.exists(file) ? reader.readBytes(file) : null;
                Cassette c = content != null ? reader.parse(file, content) : store.replay(op, request);
                exchanges[k] = new OpExchange(op, request, c.fingerprint(), file);
                answers.offer(exchanges[k], answers.of(exchanges[k], c), content != null ? content.length : 0);
            } catch (CassetteMiss e) {
                misses[k] = e;
                problems[k] = wheres.get(k) + e.getMessage();
            } catch (CassetteException e) {
                problems[k] = wheres.get(k) + "the cassette for op '" + op + "' is unusable: " + e.getMessage();
            }
        });
        Set<String> labelled = null;
        List<String> found = new ArrayList<>();
        for (int k = 0; k < problems.length; k++) {
            if (problems[k] == null) {
                continue;
            }
            if (misses[k] != null && config.sdkOp(ops.get(k))) {
                // The loop's SDK sends this op's requests: labelled cassettes answer them, by their own fingerprints.
                if (recording) {
                    continue;
                }
                if (labelled == null) {
                    labelled = labelledOps(store, reader);
                }
                if (labelled.contains(ops.get(k))) {
                    continue;
                }
                found.add(wheres.get(k) + "no cassette recorded for op '" + ops.get(k) + "'. "
                        + CassetteMiss.recordThroughLoop(config.loop()));
                continue;
            }
            found.add(problems[k]);
        }
        if (!found.isEmpty()) {
            throw new SetupException(found);
        }
        List<OpExchange> prepared = new ArrayList<>();
        for (OpExchange e : exchanges) {
            if (e != null) {
                prepared.add(e);
            }
        }
        return new Rehearsal(config, loops, volatilePaths, prepared, answers);
    }

    /** The ops the cassettes of the folder were recorded for, by their {@code "op"} labels. */
    private static Set<String> labelledOps(CassetteStore store, CassetteReader reader) {
        Set<String> labels = new HashSet<>();
        try {
            for (Path file : store.files()) {
                try {
                    String op = reader.read(file).op();
                    if (op != null) {
                        labels.add(op);
                    }
                } catch (CassetteException e) {
                    // Integrity reports a broken file; here it just labels nothing.
                }
            }
        } catch (java.io.IOException e) {
            // A folder that cannot be listed has no labels; the ops' misses say what is missing.
        }
        return labels;
    }

    /**
     * Prepares a rehearsal on cassettes already verified, every op's cassette present and readable, as the check goal
     * finds before it runs any scenario: nothing is read until a run needs it, so each cassette is read once for the
     * runs, and answers from at most {@value RecordedAnswers#CAPACITY_BYTES} bytes of cassettes are kept. A cassette that is missing or broken after
     * all fails the runs that need it, under cassette integrity.
     *
     * @param fingerprints the fingerprint of each op's request as the verification found it; an op it lacks is
     *                     fingerprinted here
     */
    public static Rehearsal prepareVerified(HarnessConfig config, LoopFactory loops, Map<String, String> fingerprints) {
        return prepareVerified(config, loops, fingerprints, null);
    }

    /**
     * As {@link #prepareVerified(HarnessConfig, LoopFactory, Map)}, taking the answers the verification has already
     * read from {@code kept} (may be {@code null}) rather than reading those files again; answers taken from there are
     * kept for the scenarios' further runs from at most {@value RecordedAnswers#CAPACITY_BYTES_AFTER_KEPT} bytes of
     * cassettes.
     */
    public static Rehearsal prepareVerified(HarnessConfig config, LoopFactory loops, Map<String, String> fingerprints,
            KeptAnswers kept) {
        VolatilePaths volatilePaths = VolatilePaths.of(config.volatilePaths());
        CassetteStore store = CassetteStore.replaying(config.cassettes(), volatilePaths);
        Set<String> seen = new LinkedHashSet<>();
        config.scenarios().forEach(s -> seen.addAll(s.ops()));
        List<String> ops = List.copyOf(seen);
        OpExchange[] exchanges = new OpExchange[ops.size()];
        Indices.forEach(ops.size(), k -> {
            // The rehearsal never changes an op's request, so the config's own node serves.
            ObjectNode request = config.sharedRequest(ops.get(k));
            String known = fingerprints.get(ops.get(k));
            String fingerprint = known != null ? known : store.fingerprint(request);
            exchanges[k] = new OpExchange(ops.get(k), request, fingerprint, store.fileFor(fingerprint));
        });
        RecordedAnswers answers = new RecordedAnswers(new CassetteReader(config.cassettes(), volatilePaths),
                new ToolCallSchema(), Integer.MAX_VALUE,
                kept == null ? RecordedAnswers.CAPACITY_BYTES : RecordedAnswers.CAPACITY_BYTES_AFTER_KEPT, kept);
        return new Rehearsal(config, loops, volatilePaths, List.of(exchanges), answers);
    }

    private static String where(HarnessConfig config, Scenario s, int scenarioIndex, int opIndex) {
        return config.where(s.ops().get(opIndex));
    }

    public HarnessConfig config() {
        return config;
    }

    VolatilePaths volatilePaths() {
        return volatilePaths;
    }

    Lookup lookup() {
        return lookup;
    }

    /** The {@code n} runs of {@code scenario} (of its {@code pool}'s, when it shares an endpoint) a check compares. */
    private List<RunTrace> runs(Scenario scenario, int n, List<Scenario> pool) {
        List<RunTrace> traces = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            if (pool != null) {
                traces.add(poolRun(pool, r).get(scenario.name()));
                continue;
            }
            RandomGenerator rnd = volatileRandom(scenario, r);
            traces.add(run(scenario, rnd));
            if (traces.get(0).failure() != null && traces.get(0).failure().kind() == RunTrace.Kind.STALLED) {
                // Another run would stall the same way, and keep the build waiting as long again.
                break;
            }
        }
        return traces;
    }

    /**
     * Runs {@code scenario} once on a fresh loop and transport.
     *
     * @param volatileRandom when not {@code null}, volatile response paths get fresh random values
     */
    public RunTrace run(Scenario scenario, RandomGenerator volatileRandom) {
        return run(scenario, volatileRandom, null);
    }

    /**
     * Runs {@code scenario} once on a fresh loop and transport, recording with {@code recorder} what no cassette
     * answers the loop's SDK with ({@code null}: replay only).
     */
    RunTrace run(Scenario scenario, RandomGenerator volatileRandom, HttpRecorder recorder) {
        Limiter limiter = scenario.limits().limitsNothing() ? null : new Limiter(scenario.limits());
        return run(scenario, volatileRandom, recorder, limiter, EndpointTurns.NONE);
    }

    /** Runs {@code scenario} once against {@code limiter} ({@code null}: no limits), taking its turns by {@code turns}. */
    RunTrace run(Scenario scenario, RandomGenerator volatileRandom, HttpRecorder recorder, Limiter limiter,
            EndpointTurns turns) {
        return run(scenario, volatileRandom, recorder, limiter, turns, null);
    }

    /**
     * Runs {@code scenario} once, recording with {@code recorder} what no cassette answers the loop's SDK with and
     * asking {@code mcpLive} what no MCP cassette answers its MCP clients with ({@code null}: replay only).
     */
    RunTrace run(Scenario scenario, RandomGenerator volatileRandom, HttpRecorder recorder,
            dev.resilienceharness.mcp.McpLive mcpLive) {
        Limiter limiter = scenario.limits().limitsNothing() ? null : new Limiter(scenario.limits());
        return run(scenario, volatileRandom, recorder, limiter, EndpointTurns.NONE, mcpLive);
    }

    /** Runs {@code scenario} once against {@code limiter}, taking its turns by {@code turns}, asking {@code mcpLive}. */
    RunTrace run(Scenario scenario, RandomGenerator volatileRandom, HttpRecorder recorder, Limiter limiter,
            EndpointTurns turns, dev.resilienceharness.mcp.McpLive mcpLive) {
        VirtualClock clock = new VirtualClock();
        ScenarioTransport transport = new ScenarioTransport(lookup, runOps(scenario),
                scenario.faults(), scenario.policy(), clock, volatileRandom, recorder, scenario.recordedLatency(),
                limiter, turns).withTools(config::tool, scenario.toolFaults(), toolRecordings)
                .withMcp(config, scenario, mcpCassettes, mcpLive);
        ProcessJournal journal = new ProcessJournal(new MemoryJournal(), transport);
        if (loops == LoopFactory.builtin()) {
            // The built-in loop's only waits are the virtual clock's: there is no real sleep to watch for.
            return attempts(scenario, clock, transport, journal, RealSleepWatch.none());
        }
        if (!watchedForStalls(recorder) || mcpLive != null) {
            try (RealSleepWatch watch = RealSleepWatch.ofCurrentThread()) {
                return attempts(scenario, clock, transport, journal, watch);
            }
        }
        RunSlot slot = RunSlot.current();
        if (slot != null) {
            // On a run thread already, where a thread waits for this run and can give up on it.
            return watched(scenario, clock, transport, journal, slot);
        }
        RunSlot own = new RunSlot();
        return RunThreads.run("resilience-run-" + scenario.name(),
                () -> own.within(() -> watched(scenario, clock, transport, journal, own)),
                () -> own.givenUp(STALL_GRACE), () -> leftBehind(own));
    }

    /**
     * Whether a run is watched for a stall ({@link StallBound}), on a run thread that a waiting thread can give up on:
     * a run of a team's loop, so that one blocked where no interrupt reaches it (a {@code CompletableFuture.join()}, a
     * monitor) fails its run instead of hanging the build. The built-in loop cannot block outside the harness, and a
     * recording's calls (to the provider, or to a live MCP server) take their own time.
     */
    private boolean watchedForStalls(HttpRecorder recorder) {
        return loops != LoopFactory.builtin() && recorder == null && !stallBound.isZero();
    }

    /** A run on a run thread, in view of {@code slot}: watched for a stall, which interrupts it once. */
    private RunTrace watched(Scenario scenario, VirtualClock clock, ScenarioTransport transport,
            ProcessJournal journal, RunSlot slot) {
        try (RealSleepWatch watch = RealSleepWatch.ofCurrentThread(() -> transport.activity() + clock.waitCount(),
                stallBound)) {
            slot.start(scenario, clock, transport, watch);
            try {
                return attempts(scenario, clock, transport, journal, watch);
            } finally {
                slot.end();
            }
        }
    }

    /** The trace of a stalled run whose loop did not end when interrupted: what it did until it stalled. */
    private RunTrace leftBehind(RunSlot slot) {
        VirtualClock clock = slot.clock();
        return new RunTrace(slot.scenario(), List.of(), slot.transport().calls(), List.copyOf(clock.waits()),
                clock.totalWaited(), List.of(), stalled(slot.stall(), ". It did not end when interrupted; its thread"
                        + " was left behind"), List.of(), slot.transport().streams(), slot.transport().toolRecords(),
                slot.transport().mcpRecords());
    }

    /**
     * Sets the stall bound for the runs from now on, in place of the one {@link StallBound#fromSystemProperties()}
     * gave when the rehearsal was prepared; {@link Duration#ZERO} turns the guard off.
     */
    public void stallBound(Duration bound) {
        this.stallBound = bound;
    }

    /** How long a stalled run's loop has, once interrupted, to end before its thread is left behind. */
    static final Duration STALL_GRACE = Duration.ofSeconds(2);

    private RunTrace.Failure stalled(RealSleepWatch.Stall stall, String after) {
        String doing = switch (stall.state()) {
            case RUNNABLE -> "it kept running";
            case BLOCKED -> "it was blocked on a lock";
            default -> "it was waiting";
        };
        return new RunTrace.Failure(RunTrace.Kind.STALLED, "the loop made no call and no wait for " + stall.millis()
                + " ms of real time (the bound is " + Durations.format(stallBound)
                + "): " + doing + " " + stall.where() + after, stall, stallBound);
    }

    /** The run itself: the loop, and each restart after a simulated crash, until it returns or fails. */
    private RunTrace attempts(Scenario scenario, VirtualClock clock, ScenarioTransport transport,
            ProcessJournal journal, RealSleepWatch watch) {
        List<RunTrace.Restart> restarts = new ArrayList<>();
        int allowedRestarts = 1;
        for (var f : scenario.faults()) {
            if (f instanceof CrashFault) {
                allowedRestarts++;
            }
        }
        List<Outcome> outcomes = List.of();
        RunTrace.Failure failure = null;
        while (true) {
            int actsBefore = transport.deadActs();
            try {
                AgentLoop loop = loops.create();
                RunOps ops = transport.ops();
                LoopRun run = LoopRun.ofTemplates(scenario.ops(), op -> template(ops, op),
                        (op, n, instruction) -> lookup.repairTemplate(op, template(ops, op), n, instruction),
                        transport, scenario.policy(), clock, journal, transport);
                List<Outcome> returned = loop.run(run);
                if (transport.dead()) {
                    // The loop swallowed its own process's death; what a dead process returns is lost.
                    throw new ProcessRecycled("(swallowed)");
                }
                if (returned == null) {
                    failure = new RunTrace.Failure(RunTrace.Kind.LOOP_FAILED, "the loop returned null instead of"
                            + " its outcome list");
                } else {
                    outcomes = returned;
                }
                break;
            } catch (ProcessRecycled | java.util.concurrent.CompletionException e) {
                // An SDK's asynchronous client hands the crash on wrapped; it is the crash all the same.
                ProcessRecycled crash = crashIn(e);
                if (crash == null) {
                    failure = loopThrew(transport, e);
                    break;
                }
                boolean swallowed = transport.deadActs() > actsBefore || crash.getMessage().endsWith("(swallowed)");
                if (restarts.size() >= allowedRestarts) {
                    failure = new RunTrace.Failure(RunTrace.Kind.LOOP_FAILED, "the loop kept dying after "
                            + restarts.size() + " restarts");
                    break;
                }
                restarts.add(new RunTrace.Restart(lastCrash(transport.calls()), journal.completed(), swallowed));
                transport.restart();
            } catch (RunawayLoop e) {
                RunTrace.Kind where = e.waiting() ? RunTrace.Kind.RUNAWAY_WAITS : RunTrace.Kind.RUNAWAY_CALLS;
                failure = new RunTrace.Failure(where, "run cut short: " + e.getMessage());
                break;
            } catch (UnlistedOp e) {
                failure = new RunTrace.Failure(RunTrace.Kind.UNLISTED_OP, e.getMessage());
                break;
            } catch (CassetteMiss | RecordedAnswers.Unreadable e) {
                failure = new RunTrace.Failure(RunTrace.Kind.CASSETTE, e.getMessage());
                break;
            } catch (RuntimeException | StackOverflowError e) {
                failure = loopThrew(transport, e);
                break;
            }
        }
        if (watch.tripped()) {
            // The harness interrupted a real sleep; whatever the loop made of that is not the loop's own doing.
            failure = new RunTrace.Failure(RunTrace.Kind.REAL_SLEEP, "the run slept in real time");
        } else if (watch.stall() != null) {
            // Nor is what it made of the interrupt that ended a stall: it is the stall that is reported.
            failure = stalled(watch.stall(), "");
        }
        if (failure == null && transport.miss() != null) {
            // The loop caught the miss and carried on; its outcomes rest on an answer that was never given.
            failure = new RunTrace.Failure(RunTrace.Kind.CASSETTE, transport.miss().getMessage());
        }
        return new RunTrace(scenario, outcomes, transport.calls(), clock.waits(), clock.totalWaited(), restarts,
                failure, watch.found(), transport.streams(), transport.toolRecords(), transport.mcpRecords());
    }

    private RandomGenerator volatileRandom(Scenario scenario, int r) {
        return volatilePaths.touchesResponse() ? new SplittableRandom(((long) scenario.name().hashCode() << 8) ^ r)
                : null;
    }

    /** Runs of whole pools, by pool and run number: every member's check takes its trace from the one run. */
    private final java.util.concurrent.ConcurrentMap<String, java.util.concurrent.CompletableFuture<Map<String,
            RunTrace>>> poolRuns = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The scenarios that share {@code scenario}'s endpoint, itself included, in yaml order; {@code null} when it has
     * one of its own (or is not one of the config's scenarios as written, as the explorer's candidates are not).
     */
    private List<Scenario> poolOf(Scenario scenario) {
        String pool = scenario.limits().pool();
        if (pool == null || scenario.limits().limitsNothing() || !config.scenarios().contains(scenario)) {
            return null;
        }
        List<Scenario> members = new ArrayList<>();
        for (Scenario s : config.scenarios()) {
            if (pool.equals(s.limits().pool()) && !s.ops().isEmpty()) {
                members.add(s);
            }
        }
        return members.size() > 1 ? members : null;
    }

    private Map<String, RunTrace> poolRun(List<Scenario> members, int r) {
        String key = members.get(0).limits().pool() + "#" + r;
        java.util.concurrent.CompletableFuture<Map<String, RunTrace>> mine = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CompletableFuture<Map<String, RunTrace>> running = poolRuns.putIfAbsent(key, mine);
        if (running == null) {
            try {
                mine.complete(SharedEndpoint.run(members, i -> volatileRandom(members.get(i), r),
                        (s, rnd, limiter, turns) -> run(s, rnd, null, limiter, turns)));
            } catch (RuntimeException | Error e) {
                mine.completeExceptionally(e);
                throw e;
            }
            return mine.join();
        }
        return running.join();
    }

    /** The crash {@code e} is or carries as a cause, else {@code null}. */
    private static ProcessRecycled crashIn(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ProcessRecycled crash) {
                return crash;
            }
        }
        return null;
    }

    /** How a run ends when the loop throws: the miss when an SDK wrapped one, else the loop's failure. */
    private static RunTrace.Failure loopThrew(ScenarioTransport transport, Throwable e) {
        if (transport.miss() != null) {
            // An SDK wrapped the miss in an exception of its own; the miss is what went wrong.
            return new RunTrace.Failure(RunTrace.Kind.CASSETTE, transport.miss().getMessage());
        }
        return new RunTrace.Failure(RunTrace.Kind.LOOP_FAILED, "the loop threw " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ", losing every outcome of the run");
    }

    /**
     * Whether {@code op}'s answer is streamed (its request asks for a stream, or its cassette keeps one), so that
     * the stream faults apply to it.
     */
    public boolean streams(String op) {
        return dev.resilienceharness.http.ApiShape.streams(template(op)) || lookup.streams(op);
    }

    /** The prepared request of a scenario op; for any other op the config's, which is never seen again. */
    private ObjectNode template(String op) {
        ObjectNode prepared = templates.get(op);
        return prepared != null ? prepared : config.request(op);
    }

    /** The prepared request of {@code op}, found among {@code ops} first. */
    private ObjectNode template(RunOps ops, String op) {
        ObjectNode prepared = ops.template(op);
        return prepared != null ? prepared : template(op);
    }

    /** {@code scenario}'s ops, with their prepared requests when it is (or was made from) one of the config's. */
    private RunOps runOps(Scenario scenario) {
        RunOps prepared = runOps.get(scenario.ops());
        return prepared != null ? prepared : RunOps.of(scenario.ops());
    }

    private static int lastCrash(List<CallRecord> calls) {
        for (int i = calls.size() - 1; i >= 0; i--) {
            if (calls.get(i).result() == CallRecord.Result.CRASH) {
                return i;
            }
        }
        return Math.max(0, calls.size() - 1);
    }

    /**
     * Runs {@code scenario} {@code runs} times (at least once) and checks the invariants in {@code which}.
     * Volatile response paths get new random values in every run, seeded by scenario name and run number so
     * a failure reproduces.
     */
    public ScenarioResult check(Scenario scenario, int runs, Set<Invariant> which) {
        int n = which.contains(Invariant.DETERMINISM) ? Math.max(2, runs) : 1;
        List<Scenario> pool = poolOf(scenario);
        List<RunTrace> traces;
        if (pool == null && watchedForStalls(null) && RunSlot.current() == null) {
            // The scenario's runs on one run thread: one hand-over for them all, rather than one per run.
            RunSlot slot = new RunSlot();
            traces = RunThreads.run("resilience-run-" + scenario.name(),
                    () -> slot.within(() -> runs(scenario, n, null)), () -> slot.givenUp(STALL_GRACE),
                    () -> List.of(leftBehind(slot)));
        } else {
            traces = runs(scenario, n, pool);
        }
        return judge(scenario, traces, which);
    }

    /**
     * Checks {@code scenarios} as {@link #check} does, on {@code threads} threads of their own, handing each result
     * to {@code checked} (from those threads) as it comes; a scenario whose check threw goes to {@code failed}
     * instead. The checks run where their thread waits for nothing but them, so that a team's loop that stalls
     * where no interrupt reaches it is given up on by the calling thread, which waits for them all: its scenario is
     * reported from the calling thread as stalled, and another thread takes the place of the one left behind. No
     * scenario is handed to a run thread of its own.
     *
     * @param which   the invariants each scenario is checked for
     * @param threads how many scenarios are checked at once (1: one after the other)
     */
    public void checkAll(List<Scenario> scenarios, int runs, java.util.function.Function<Scenario, Set<Invariant>> which,
            int threads, java.util.function.BiConsumer<Scenario, ScenarioResult> checked,
            java.util.function.BiConsumer<Scenario, RuntimeException> failed) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ThreadPoolExecutor workers = new java.util.concurrent.ThreadPoolExecutor(threads,
                threads, 0, java.util.concurrent.TimeUnit.MILLISECONDS, new java.util.concurrent.LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "resilience-scenarios-" + made.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        try {
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>(scenarios.size());
            List<RunSlot> slots = new ArrayList<>(scenarios.size());
            for (Scenario scenario : scenarios) {
                RunSlot slot = new RunSlot();
                slots.add(slot);
                futures.add(workers.submit(() -> {
                    Thread me = Thread.currentThread();
                    me.setContextClassLoader(loader);
                    try {
                        ScenarioResult result = slot.within(() -> check(scenario, runs, which.apply(scenario)));
                        if (slot.report()) {
                            checked.accept(scenario, result);
                        }
                    } catch (RuntimeException e) {
                        if (slot.report()) {
                            failed.accept(scenario, e);
                        }
                    }
                }));
            }
            for (int i = 0; i < futures.size(); i++) {
                awaitOrGiveUp(scenarios.get(i), futures.get(i), slots.get(i), which.apply(scenarios.get(i)), workers,
                        checked);
            }
        } finally {
            workers.shutdown();
        }
    }

    private void awaitOrGiveUp(Scenario scenario, java.util.concurrent.Future<?> future, RunSlot slot,
            Set<Invariant> which, java.util.concurrent.ThreadPoolExecutor workers,
            java.util.function.BiConsumer<Scenario, ScenarioResult> checked) {
        while (true) {
            try {
                future.get(STALL_POLL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                return;
            } catch (java.util.concurrent.TimeoutException e) {
                if (slot.givenUp(STALL_GRACE) && slot.report()) {
                    // Its thread stays with the loop: another takes its place for the scenarios still to come.
                    workers.setMaximumPoolSize(workers.getMaximumPoolSize() + 1);
                    workers.setCorePoolSize(workers.getCorePoolSize() + 1);
                    checked.accept(scenario, judge(scenario, List.of(leftBehind(slot)), which));
                    return;
                }
            } catch (java.util.concurrent.ExecutionException e) {
                // The task itself catches what a check throws; what is left is an Error.
                Throwable cause = e.getCause();
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(cause);
            } catch (InterruptedException e) {
                workers.shutdownNow();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the scenarios ran", e);
            }
        }
    }

    /** How often {@link #checkAll} looks at a scenario for its end, or for whether to give up on it. */
    private static final Duration STALL_POLL = Duration.ofMillis(50);

    /** What the runs of {@code scenario} come to, checked for {@code which}. */
    private ScenarioResult judge(Scenario scenario, List<RunTrace> traces, Set<Invariant> which) {
        RunTrace first = traces.get(0);
        Map<Invariant, List<Violation>> found = new LinkedHashMap<>();
        for (ScenarioInvariant check : runChecks) {
            if (which.contains(check.invariant())) {
                // Several checks may judge one invariant (the call and token budgets; partial work: survival and
                // duplicated text): their findings add up.
                found.computeIfAbsent(check.invariant(), k -> new ArrayList<>()).addAll(check.check(first));
            }
        }
        if (which.contains(Invariant.DETERMINISM)) {
            found.put(Invariant.DETERMINISM, determinism.check(traces));
        }
        List<Violation> violations = new ArrayList<>();
        for (Invariant inv : Invariant.values()) {
            violations.addAll(found.getOrDefault(inv, List.of()));
        }
        if (first.failure() != null && first.failure().kind() == RunTrace.Kind.CASSETTE) {
            violations.add(new Violation(Invariant.CASSETTES, scenario.name(), null, null, null,
                    first.failure().message(), null));
        }
        return new ScenarioResult(scenario, first, CallBudget.scenarioBound(first), violations,
                dev.resilienceharness.invariant.TokenSpend.of(first, config.budget()));
    }
}
