package dev.resilienceharness.fork;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.concurrent.Ahead;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.incremental.InputDigest;
import dev.resilienceharness.json.Fingerprint;
import dev.resilienceharness.pipeline.CheckPass;
import dev.resilienceharness.pipeline.CheckRun;
import dev.resilienceharness.pipeline.ConfigLoading;
import dev.resilienceharness.pipeline.ScenarioRunner;
import dev.resilienceharness.pipeline.ScenarioScope;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.scenario.StallBound;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.transport.ToolCallSchema;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;

/**
 * The forked side of the {@code check} goal, as surefire's booter is of its tests: the {@code main} of a JVM of its
 * own, started by the plugin's launcher with only core and its libraries on the classpath (no Maven jar). It reads the
 * request the launcher wrote ({@link ForkRequest}), loads the yaml, makes the same pass with the same code
 * ({@link CheckRun}) as a check in Maven's JVM, and sends back each log line as it is logged, then the verdict, on its
 * standard output ({@link ForkProtocol}). What the team's loop prints goes to its standard error.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ForkedCheck {

    private ForkedCheck() {
    }

    /** What {@link WorkerDied} sends its verdict with; set once {@link #main} has made them. */
    private static volatile Sender workerSender;
    private static volatile byte[] workerOutOfHeap;

    /**
     * The common fork/join pool's handler of a worker thread that dies ({@code main} names it to the pool). A worker
     * that ran out of memory in the pool's own code, while it took or finished a task, leaves that task never completed,
     * and the thread waiting for it would wait for ever: this sends the out-of-memory verdict and ends the JVM. Anything
     * else (a team's loop may hand the pool a task that throws) is printed as the JVM's own handler prints it, and the
     * check goes on. Public, with a public constructor, for the pool to make one.
     */
    public static final class WorkerDied implements Thread.UncaughtExceptionHandler {

        @Override
        public void uncaughtException(Thread thread, Throwable e) {
            if (!(e instanceof OutOfMemoryError)) {
                thread.getThreadGroup().uncaughtException(thread, e);
                return;
            }
            Sender sender = workerSender;
            try {
                if (sender != null) {
                    sender.outOfMemory(e.getMessage(), workerOutOfHeap);
                }
            } catch (Throwable none) {
                // Nothing more can be said: the JVM still ends, and Maven's JVM reports one that ends without a verdict.
            }
            // The shutdown machinery was set up by main, so that halting needs no memory now.
            Runtime.getRuntime().halt(0);
        }
    }

    /** The forked JVM: runs the check the request file names and sends what it logs and its verdict. */
    public static void main(String[] args) {
        // Before anything starts the pool (it reads the property once); and the class that halts a JVM set up while
        // there is memory for it, which a worker that died of a full heap needs (WorkerDied).
        System.setProperty("java.util.concurrent.ForkJoinPool.common.exceptionHandler", WorkerDied.class.getName());
        try {
            Class.forName("java.lang.Shutdown", true, null);
        } catch (ClassNotFoundException | LinkageError e) {
            // another JDK: halting then sets it up itself
        }
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        // Whatever else writes to the standard output (the team's loop, a library) goes to the standard error, in the
        // UTF-8 Maven's JVM reads it in.
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        System.setErr(err);
        System.setOut(err);
        Sender sender = new Sender(out);
        // Made before the check allocates anything: the verdict of a JVM whose heap is so full that it cannot make even
        // that line (other threads may still hold what they read when the check's own thread ran out).
        byte[] outOfHeap = (ForkProtocol.line("fault", ForkProtocol.outOfMemoryMessage("Java heap space"))
                + System.lineSeparator())
                .getBytes(StandardCharsets.UTF_8);
        workerOutOfHeap = outOfHeap;
        workerSender = sender;
        // Maven's JVM learns that this one has started and runs the check.
        sender.line("began", "");
        try {
            ForkRequest request = ForkRequest.read(Path.of(args[0]));
            request.properties().forEach(System::setProperty);
            sender.debug(request.debug());
            prepare();
            check(request, sender);
            sender.line("ok", "");
        } catch (RunFailure e) {
            sender.line("failure", e.getMessage());
        } catch (RunError e) {
            sender.line("fault", e.getMessage());
        } catch (IOException e) {
            sender.line("fault", "resilience:check cannot read its request " + args[0] + ": " + e.getMessage());
        } catch (RuntimeException e) {
            sender.line("debug", Sender.stackTrace(e));
            sender.line("fault", ConfigLoading.unexpected("check", e));
        } catch (OutOfMemoryError e) {
            sender.outOfMemory(e.getMessage(), outOfHeap);
        } catch (Error e) {
            sender.line("debug", Sender.stackTrace(e));
            sender.line("fault", "resilience:check failed in its JVM: " + e);
        }
        out.flush();
        // A thread the team's loop left running must not keep the forked JVM alive.
        System.exit(0);
    }

    /**
     * With a core to spare, sets up on it, while this thread reads the yaml (which keeps one core busy, not two), what
     * later phases would otherwise wait for: the fingerprint's digest for the cassette pass, then the tool-call schema
     * library for the scenarios. It is only a head start, so what it throws is dropped; the first fingerprint or tool
     * call checked meets the same problem and reports it.
     */
    private static void prepare() {
        if (!spareCore()) {
            return;
        }
        Thread prepare = new Thread(() -> {
            try {
                Fingerprint.prepare();
                ToolCallSchema.prepare();
            } catch (RuntimeException | LinkageError e) {
                // see above
            }
        }, "resilience-prepare");
        prepare.setDaemon(true);
        prepare.start();
    }

    /** Whether this JVM has a core to spare for a head start of later work, beside the thread checking. */
    private static boolean spareCore() {
        return Runtime.getRuntime().availableProcessors() >= 2;
    }

    private static void check(ForkRequest request, RunLog log) throws RunError, RunFailure {
        Shard shard;
        try {
            shard = request.shard() == null ? Shard.WHOLE : Shard.parse(request.shard());
        } catch (IllegalArgumentException e) {
            throw new RunError(e.getMessage());
        }
        List<String> testClasspath = request.testClasspath();
        // Maven's JVM sends the goal's stallTimeout among the properties, as the build's own -D would be.
        Duration stallBound = ScenarioRunner.stallBound(System.getProperty(StallBound.PROPERTY));
        ScenarioRunner runner = new ScenarioRunner(log, "check", shard, request.runs(), stallBound,
                () -> testClasspath);
        // With a core to spare, the cassette folder is listed on it while the yaml's scenarios are read; the record's
        // digest, when one is taken, names the entries of that listing.
        Map<Path, Future<CassetteStore.Listing>> listedAhead = new HashMap<>(1);
        // A record with no digest from Maven's JVM (a clean clone, say) needs the yaml's: of the bytes loaded, hashed
        // on the spare core meanwhile.
        Path yaml = request.options().yaml();
        boolean digestAhead = spareCore() && request.options().identity() != null
                && request.options().earlierInputsNow() == null;
        AtomicReference<Future<String>> yamlDigest = new AtomicReference<>();
        HarnessConfig loaded = ConfigLoading.load(yaml, request.loop(), log,
                !spareCore() ? null : folder -> listedAhead.put(folder, CassetteStore.listingAhead(folder)),
                !digestAhead ? null : bytes -> yamlDigest.set(Ahead.begin("resilience-yaml-digest",
                        () -> InputDigest.ofRead(yaml, bytes))));
        CheckRun.run(log, request.options(), ScenarioScope.forGoal(loaded, "check", log), false,
                () -> digestOf(yaml, yamlDigest.get()), (c, digest) -> CheckPass.run(runner, c,
                        request.options().failOnOrphans(), true, listedAhead.get(c.cassettes()), digest));
    }

    /** The yaml's digest taken {@code ahead} (may be {@code null}), or taken now. */
    private static String digestOf(Path yaml, Future<String> ahead) {
        if (ahead != null) {
            try {
                return ahead.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                // Taken again below, where a failure is what InputDigest.of says of the file.
            }
        }
        return InputDigest.of(yaml);
    }
}
