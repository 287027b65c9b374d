package dev.resilienceharness.clients.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * What every SDK adapter does, as a test its module runs against the real SDK jar: extend this class, say which API
 * the SDK speaks and how it names itself, build the SDK's client on a run as production code builds it, and say
 * what the SDK's exceptions mean. A new adapter (Gemini, Bedrock, MCP) starts here.
 *
 * <p>Once per class the contract records two cassettes and a stream through the adapter from a provider on
 * 127.0.0.1 (the live path), then replays them offline with one fault per test: a 429 with and without
 * {@code Retry-After}, a timeout on the virtual clock, a 5xx, a schema-broken tool call, a stream cut after its
 * headers, the process's crash, and the SDK's own retries, which the retry-stack audit counts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AdapterContract {

    /** The ops the contract's scenarios use; {@link #STREAMED} is called through the SDK's streaming API. */
    static final List<String> OPS = List.of("plan", "patch", "stream");

    static final String STREAMED = "stream";

    /** The key recording sends; it must reach the provider and never a cassette. */
    static final String KEY = "sk-contract-recording-key-never-on-disk";

    /** The SDK's client as production code builds it; {@code null} settings keep the SDK's defaults. */
    public record Settings(Integer maxRetries, Duration timeout) {

        /** The SDK's defaults: its own retries, its own timeouts. */
        public static final Settings DEFAULTS = new Settings(null, null);

        /** No retries of the SDK's own: every fault reaches the loop. */
        public static final Settings NO_SDK_RETRIES = new Settings(0, null);
    }

    /** What one call of the loop got back: the text, and the arguments of each tool call as the SDK delivered them. */
    public record Answer(String text, List<String> toolArguments) {
        public Answer {
            toolArguments = List.copyOf(toolArguments);
        }
    }

    /** The SDK's client on one run, as the contract's loop calls it. */
    public interface Client {

        /** One call of the loop: sends {@code prompt} as a user message; throws what the SDK throws. */
        Answer ask(String prompt);

        /** One streamed call: reads the stream to its end and returns its text; throws when the stream breaks. */
        String stream(String prompt);
    }

    /** What an exception the SDK threw means. */
    public enum Kind {
        QUOTA, SERVER_ERROR, TIMEOUT, OTHER
    }

    /**
     * An SDK exception as the loop reads it.
     *
     * @param retryAfter the {@code Retry-After} the exception carries, or {@code null}
     */
    public record Failure(Kind kind, String retryAfter) {
    }

    /** What the contract's loop saw for one op: an answer, or what the SDK threw. */
    record Seen(String op, Answer answer, RuntimeException thrown) {
    }

    private Path project;
    private HarnessConfig config;
    private int recorded;
    private List<String> keys;
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());

    /**
     * The API the SDK speaks: {@link ApiShape#CHAT_COMPLETIONS}, {@link ApiShape#MESSAGES}, {@link ApiShape#GEMINI} or
     * {@link ApiShape#BEDROCK}.
     */
    protected abstract ApiShape api();

    /** How the run's trace names the SDK: the start of every call's {@code sdk}, e.g. {@code openai-java 4.}. */
    protected abstract String sdk();

    /** The SDK's client on {@code run}, built with {@code settings} as production code builds it. */
    protected abstract Client client(LoopRun run, Settings settings);

    /** What {@code thrown}, an exception the SDK threw, means. */
    protected abstract Failure failure(RuntimeException thrown);

    /** Whether the SDK hands a 429's {@code Retry-After} to the loop (langchain4j's exceptions carry no headers). */
    protected boolean retryAfterReachesTheLoop() {
        return true;
    }

    /**
     * Whether the SDK's retry waits can be put on the run's virtual clock. An SDK that sleeps for real (langchain4j)
     * has each such sleep interrupted and reported under bounded_wait instead.
     */
    protected boolean sdkWaitsVirtually() {
        return true;
    }

    /**
     * Whether a tool call whose arguments are cut off reaches the loop as a 200 with those arguments; an SDK that
     * types the arguments as an object (google-genai) cannot read the answer and throws instead, without a retry.
     */
    protected boolean brokenToolArgumentsReachTheLoop() {
        return true;
    }

    /**
     * Whether the adapter speaks the SDK's streaming API. Without it the streamed op is neither recorded nor run, and
     * the stream tests are skipped (Bedrock's {@code ConverseStream}, whose event-stream framing is not spoken yet).
     */
    protected boolean streams() {
        return true;
    }

    /** What the retry-stack audit tells to build the SDK's client without its own retries. */
    protected String noRetriesFix() {
        return "maxRetries(0)";
    }

    static String prompt(String op) {
        return switch (op) {
            case "plan" -> "Plan the fix for the failing RangeTest.";
            case "patch" -> "Write the patch for the fix.";
            default -> "Stream a short review of the patch.";
        };
    }

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.tck.ContractLoop
            policy:
              max_attempts: 3
              max_total_wait: 30s
              schema: {repair_attempts: 0}
            scenarios:
              - {name: clean, ops: [plan, patch], faults: []}
              - {name: quota, ops: [plan], faults: [quota]}
              - {name: quota-retry-after, ops: [plan], faults: [{quota: {retry_after: "2"}}]}
              - {name: timeout, ops: [plan, patch], faults: [timeout]}
              - {name: server-error, ops: [plan], faults: [server_error]}
              - {name: bad-tool-call, ops: [plan], faults: [bad_tool_call]}
              - {name: crash, ops: [plan, patch], faults: [none, crash]}
            """;

    /** The scenarios of the streamed op, for an SDK whose stream the adapter speaks ({@link #streams()}). */
    private static final String STREAMED_SCENARIOS = """
              - {name: streamed, ops: [stream], faults: []}
              - {name: stream-cut, ops: [stream], faults: [{stream_cut: {after_events: 2}}]}
            """;

    @BeforeAll
    void recordThroughTheAdapterFromALoopbackProvider() throws Exception {
        project = Files.createTempDirectory("adapter-contract");
        Files.writeString(project.resolve("resilience.yaml"), streams() ? YAML + STREAMED_SCENARIOS : YAML);
        config = ConfigLoader.load(project.resolve("resilience.yaml"));
        try (ContractProvider provider = ContractProvider.start(api())) {
            LoopRecorder recording = LoopRecorder.prepare(config, loops(Settings.DEFAULTS));
            LiveHttp live = LiveHttp.to(provider.baseUrl(), KEY, Duration.ofSeconds(10));
            for (String scenario : streams() ? List.of("clean", "streamed") : List.of("clean")) {
                recorded += recording.recordMissing(scenario(scenario), live, RecordingRedaction.forConfig(config))
                        .recorded();
            }
            keys = provider.keys();
        }
    }

    @AfterAll
    void deleteTheProject() throws IOException {
        if (project != null) {
            try (Stream<Path> files = Files.walk(project)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @BeforeEach
    void forgetWhatTheLoopSaw() {
        seen.clear();
    }

    @Test
    public void recordingGoesThroughTheAdapterToTheProviderAndReplaysOfflineUnderTheSdksName() throws Exception {
        int ops = streams() ? 3 : 2;
        assertEquals(ops, recorded, "plan, patch and the stream were each recorded");
        assertEquals(ops, keys.size(), "one request per op reached the provider: " + keys);
        keys.forEach(k -> assertTrue(k.contains(KEY), "the recorder's key went to the provider: " + k));
        List<Path> cassettes;
        try (Stream<Path> files = Files.list(config.cassettes())) {
            cassettes = files.sorted().toList();
        }
        assertEquals(ops, cassettes.size(), cassettes.toString());
        for (Path file : cassettes) {
            assertFalse(Files.readString(file).contains(KEY), file + " holds the key");
            assertTrue(OPS.contains(Json.readTree(Files.readAllBytes(file)).path("op").asString()), file.toString());
        }

        RunTrace clean = run("clean", Settings.DEFAULTS);
        assertNull(clean.failure());
        assertEquals(List.of("plan", "patch"), clean.calls().stream().map(CallRecord::op).toList());
        for (CallRecord call : clean.calls()) {
            assertTrue(call.sdk() != null && call.sdk().startsWith(sdk()), call.sdk());
            assertEquals(0, call.sdkRetry());
            assertEquals(CallRecord.Result.OK, call.result());
        }
        assertEquals(List.of("plan done", "patch done"),
                clean.outcomes().stream().map(o -> o.value().asString()).toList());
        assertEquals(List.of(ContractProvider.arguments("plan")), only("plan").answer().toolArguments().stream()
                .map(a -> Json.compact(Json.readTree(a))).toList());

        if (!streams()) {
            return;
        }
        RunTrace streamed = run("streamed", Settings.DEFAULTS);
        assertNull(streamed.failure());
        assertEquals(ContractProvider.text(STREAMED), streamed.outcomes().get(0).value().asString());
        assertEquals("done", streamed.streams().get(0).end());
    }

    @Test
    public void aQuotaWithoutRetryAfterReachesTheLoopAsTheSdksRateLimitError() throws Exception {
        RunTrace trace = run("quota", Settings.NO_SDK_RETRIES);
        CallRecord call = onlyCall(trace);
        assertEquals(CallRecord.Result.QUOTA, call.result());
        assertEquals(429, call.status());
        assertNull(call.retryAfter());
        assertEquals(new Failure(Kind.QUOTA, null), failure(only("plan").thrown()));
        assertEquals(Duration.ZERO, trace.totalWait());
    }

    @Test
    public void aQuotaWithRetryAfterStatesItsDelayToTheLoopWhereTheSdkCarriesHeaders() throws Exception {
        RunTrace trace = run("quota-retry-after", Settings.NO_SDK_RETRIES);
        CallRecord call = onlyCall(trace);
        assertEquals(CallRecord.Result.QUOTA, call.result());
        assertEquals("2", call.retryAfter());
        assertEquals(new Failure(Kind.QUOTA, retryAfterReachesTheLoop() ? "2" : null),
                failure(only("plan").thrown()));
    }

    @Test
    public void theSdksOwnRetriesAreCallsOfTheRunThatTheRetryStackAuditCounts() throws Exception {
        ScenarioResult result = check("quota", Settings.DEFAULTS);
        RunTrace trace = result.trace();
        if (!sdkWaitsVirtually()) {
            assertSleptForRealAndWasReported(result);
            return;
        }
        assertEquals(List.of(0, 1), trace.calls().stream().map(CallRecord::sdkRetry).toList());
        CallRecord retry = trace.calls().get(1);
        assertTrue(retry.bySdk());
        assertTrue(retry.sdk().startsWith(sdk()), retry.sdk());
        Violation budget = only(result, Invariant.BUDGET);
        assertEquals("1 call", budget.bound());
        assertEquals("2 calls", budget.actual());
        assertTrue(budget.message().contains(" made 1 of them as its own retries, under 1 call of your loop"),
                budget.message());
        assertTrue(budget.hint().contains(noRetriesFix()), budget.hint());
        assertFalse(trace.waits().isEmpty(), "the SDK's backoff was waited on the run's clock");
        assertTrue(trace.waits().get(0).by().startsWith(sdk()), "the SDK's backoff is marked as its own");
        assertEquals(List.of(), trace.realSleeps());
    }

    @Test
    public void aRetryAfterTheSdkHonoursIsWaitedOnTheVirtualClockAsTheSdks() throws Exception {
        ScenarioResult result = check("quota-retry-after", Settings.DEFAULTS);
        RunTrace trace = result.trace();
        if (!sdkWaitsVirtually()) {
            assertSleptForRealAndWasReported(result);
            return;
        }
        assertEquals(1, trace.waits().size(), trace.waits().toString());
        assertEquals(Duration.ofSeconds(2).toNanos(), trace.waits().get(0).nanos());
        assertTrue(trace.waits().get(0).by().startsWith(sdk()), trace.waits().get(0).by());
        // The retry went out 2 s after the first attempt on the run's clock, which only the SDK's sleeper moved.
        assertEquals(Duration.ofSeconds(2).toNanos(), trace.calls().get(1).atNanos());
        assertEquals(1, trace.calls().get(1).sdkRetry());
        assertEquals(List.of(), trace.realSleeps());
        assertEquals(Status.OK, trace.outcomes().get(0).status());
    }

    @Test
    public void aTimeoutCostsTheSdksTimeoutOnTheVirtualClockAndIsTheSdksTimeoutError() throws Exception {
        RunTrace trace = run("timeout", new Settings(0, Duration.ofSeconds(7)));
        assertEquals(CallRecord.Result.TRANSIENT, trace.calls().get(0).result());
        assertEquals(Kind.TIMEOUT, failure(only("plan").thrown()).kind());
        // The next call went out when the 7 s timeout had run out on the run's clock; that was no waiting.
        assertEquals(Duration.ofSeconds(7).toNanos(), trace.calls().get(1).atNanos());
        assertEquals(Duration.ZERO, trace.totalWait());
        assertEquals(List.of(), trace.realSleeps());
    }

    @Test
    public void aServerErrorReachesTheLoopAsItsStatus() throws Exception {
        RunTrace trace = run("server-error", Settings.NO_SDK_RETRIES);
        CallRecord call = onlyCall(trace);
        assertEquals(CallRecord.Result.TRANSIENT, call.result());
        assertTrue(call.status() >= 500, String.valueOf(call.status()));
        assertEquals(Kind.SERVER_ERROR, failure(only("plan").thrown()).kind());
    }

    @Test
    public void aSchemaBrokenToolCallIsA200TheSdkDoesNotRetryWhoseArgumentsDoNotParse() throws Exception {
        RunTrace trace = run("bad-tool-call", Settings.DEFAULTS);
        CallRecord call = onlyCall(trace);
        assertEquals(CallRecord.Result.SCHEMA, call.result());
        Seen plan = only("plan");
        if (!brokenToolArgumentsReachTheLoop()) {
            assertNotNull(plan.thrown(), "the SDK could not read the arguments");
            assertEquals(Kind.OTHER, failure(plan.thrown()).kind());
            return;
        }
        assertNull(plan.thrown(), "a 200 reaches the loop");
        assertFalse(plan.answer().toolArguments().isEmpty());
        for (String arguments : plan.answer().toolArguments()) {
            assertFalse(parsesAsAnObject(arguments), arguments);
        }
    }

    @Test
    public void aStreamCutAfterItsHeadersReachesTheLoopAndNoSdkRetriesIt() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(streams(), "the adapter does not speak the SDK's stream yet");
        RunTrace trace = run("stream-cut", Settings.DEFAULTS);
        onlyCall(trace);
        assertNotNull(only(STREAMED).thrown(), "the loop learnt that the stream broke");
        assertEquals("cut", trace.streams().get(0).end());
    }

    @Test
    public void aCrashPassesThroughTheSdkUntouchedAndTheLoopResumesFromItsJournal() throws Exception {
        RunTrace trace = run("crash", Settings.DEFAULTS);
        assertEquals(1, trace.restarts().size());
        assertEquals(List.of("plan", "patch", "patch"), trace.calls().stream().map(CallRecord::op).toList());
        assertTrue(trace.calls().stream().noneMatch(CallRecord::bySdk), "no SDK retried the crash");
        assertEquals(List.of(Status.OK, Status.OK), trace.outcomes().stream().map(Outcome::status).toList());
    }

    private void assertSleptForRealAndWasReported(ScenarioResult result) {
        assertFalse(result.trace().realSleeps().isEmpty(), "the SDK's real sleep was seen");
        assertFalse(result.violations().stream().filter(v -> v.invariant() == Invariant.BOUNDED_WAIT).toList()
                .isEmpty(), result.violations().toString());
    }

    private static boolean parsesAsAnObject(String json) {
        try {
            return Json.readTree(json).isObject();
        } catch (RuntimeException notJson) {
            return false;
        }
    }

    private LoopFactory loops(Settings settings) {
        Function<LoopRun, Client> clients = run -> client(run, settings);
        return () -> new ContractLoop(clients, seen::add);
    }

    private Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private RunTrace run(String scenario, Settings settings) throws Exception {
        return Rehearsal.prepare(config, loops(settings)).run(scenario(scenario), null);
    }

    private ScenarioResult check(String scenario, Settings settings) throws Exception {
        return Rehearsal.prepare(config, loops(settings)).check(scenario(scenario), 1, Rehearsal.RUN_INVARIANTS);
    }

    private Seen only(String op) {
        List<Seen> of = seen.stream().filter(s -> s.op().equals(op)).toList();
        assertEquals(1, of.size(), of.toString());
        return of.get(0);
    }

    private static CallRecord onlyCall(RunTrace trace) {
        assertEquals(1, trace.calls().size(), trace.calls().toString());
        return trace.calls().get(0);
    }

    private static Violation only(ScenarioResult result, Invariant invariant) {
        List<Violation> found = result.violations().stream().filter(v -> v.invariant() == invariant).toList();
        assertEquals(1, found.size(), result.violations().toString());
        return found.get(0);
    }
}
