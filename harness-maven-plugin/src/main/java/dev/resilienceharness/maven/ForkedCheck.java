package dev.resilienceharness.maven;

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
import dev.resilienceharness.run.PhaseTime;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.scenario.StallBound;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.transport.ToolCallSchema;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;

/**
 * The {@code check} goal in a JVM of its own, as surefire runs tests in a forked JVM. A full check is one pass of a few
 * seconds over thousands of files, in a JVM that has just started: in Maven's JVM, the optimising compiler spends
 * more time compiling that pass than the compiled code saves, and on a 2-core runner it takes one of the two cores
 * away. The forked JVM runs with the options of {@code resilience.fork.jvmArgs} ({@value #DEFAULT_JVM_ARGS} by default:
 * the quick compiler only; the parallel collector, whose collections use both cores, with a young generation of
 * 96 MB whose survivors go straight to the old generation, and an old one at most a quarter larger than what is live,
 * so that the heap follows what the check keeps rather than how fast it allocates; on Linux, on transparent huge pages
 * where the kernel offers them, {@link HugePages}). What outlives one young collection
 * here is nearly always kept to the end (the yaml's settings, the answers kept for the runs, the fingerprints), so
 * copying it between survivor spaces first would only copy it twice.
 *
 * <p>Maven's JVM sends the goal's options, the project's test classpath and the build's user properties; the forked
 * JVM loads the yaml, makes the same pass with the same code ({@link CheckRun}) and sends back each log line as it is
 * logged, then the verdict, on its standard output. What the team's loop prints goes to its standard error, which
 * Maven's JVM logs as it comes. A JVM that ends without a verdict is an error that says how it was started.
 */
public final class ForkedCheck {

    /** The forked JVM's options unless {@code resilience.fork.jvmArgs} says otherwise. */
    static final String DEFAULT_JVM_ARGS = "-XX:TieredStopAtLevel=1 -XX:+UseParallelGC -Xmn96m"
            + " -XX:MaxTenuringThreshold=0 -XX:MaxHeapFreeRatio=20 -XX:MinHeapFreeRatio=10";

    /**
     * What starts each line the forked JVM sends on its standard output, followed by the kind ({@code debug},
     * {@code info}, {@code warn}, {@code error}, or the verdict: {@code ok}, {@code failure}, {@code fault}), a space
     * and the text, escaped onto one line; any other line is output of its own.
     */
    static final String MARK = "\u0001resilience:";

    /** The check's options and everything it needs of Maven's JVM. */
    record Request(CheckRun.Options options, String loop, String shard, int runs, List<String> testClasspath,
            Map<String, String> properties, boolean debug) {

        void write(Path file) throws IOException {
            Properties p = new Properties();
            p.setProperty("yaml", options.yaml().toString());
            p.setProperty("recordFile", options.recordFile().toString());
            p.setProperty("failOnOrphans", Boolean.toString(options.failOnOrphans()));
            p.setProperty("failOnViolation", Boolean.toString(options.failOnViolation()));
            p.setProperty("failOnStale", Boolean.toString(options.failOnStale()));
            put(p, "identity", options.identity());
            put(p, "earlierCassettes", options.earlierCassettes());
            put(p, "earlierBaseline", options.earlierBaseline());
            put(p, "earlierInputsNow", options.earlierInputsNow());
            put(p, "loop", loop);
            put(p, "shard", shard);
            p.setProperty("runs", Integer.toString(runs));
            for (int i = 0; i < testClasspath.size(); i++) {
                p.setProperty("testClasspath." + i, testClasspath.get(i));
            }
            properties.forEach((k, v) -> p.setProperty("property." + k, v));
            p.setProperty("debug", Boolean.toString(debug));
            try (OutputStream out = Files.newOutputStream(file)) {
                p.store(out, null);
            }
        }

        static Request read(Path file) throws IOException {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            }
            CheckRun.Options options = new CheckRun.Options(Path.of(p.getProperty("yaml")),
                    Path.of(p.getProperty("recordFile")), flag(p, "failOnOrphans"), flag(p, "failOnViolation"),
                    flag(p, "failOnStale"), p.getProperty("identity"), path(p, "earlierCassettes"),
                    path(p, "earlierBaseline"), p.getProperty("earlierInputsNow"));
            List<String> cp = new ArrayList<>();
            for (int i = 0; p.getProperty("testClasspath." + i) != null; i++) {
                cp.add(p.getProperty("testClasspath." + i));
            }
            Map<String, String> props = new TreeMap<>();
            for (String key : p.stringPropertyNames()) {
                if (key.startsWith("property.")) {
                    props.put(key.substring("property.".length()), p.getProperty(key));
                }
            }
            return new Request(options, p.getProperty("loop"), p.getProperty("shard"),
                    Integer.parseInt(p.getProperty("runs")), cp, props, flag(p, "debug"));
        }

        private static void put(Properties p, String key, Object value) {
            if (value != null) {
                p.setProperty(key, value.toString());
            }
        }

        private static boolean flag(Properties p, String key) {
            return Boolean.parseBoolean(p.getProperty(key));
        }

        private static Path path(Properties p, String key) {
            String s = p.getProperty(key);
            return s == null ? null : Path.of(s);
        }
    }

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
        byte[] outOfHeap = (sender.text("fault", outOfMemoryMessage("Java heap space")) + System.lineSeparator())
                .getBytes(StandardCharsets.UTF_8);
        workerOutOfHeap = outOfHeap;
        workerSender = sender;
        // Maven's JVM learns that this one has started and runs the check.
        sender.line("began", "");
        try {
            Request request = Request.read(Path.of(args[0]));
            request.properties().forEach(System::setProperty);
            sender.debug = request.debug();
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
            sender.line("debug", LineLog.stackTrace(e));
            sender.line("fault", ConfigLoading.unexpected("check", e));
        } catch (OutOfMemoryError e) {
            sender.outOfMemory(e.getMessage(), outOfHeap);
        } catch (Error e) {
            sender.line("debug", LineLog.stackTrace(e));
            sender.line("fault", "resilience:check failed in its JVM: " + e);
        }
        out.flush();
        // A thread the team's loop left running must not keep the forked JVM alive.
        System.exit(0);
    }

    /** What the check says when its JVM ran out of memory for {@code reason}. */
    static String outOfMemoryMessage(String reason) {
        return "resilience:check ran out of memory in its JVM (" + reason + "); give it more with"
                + " -Dresilience.fork.jvmArgs, such as \"" + DEFAULT_JVM_ARGS + " -Xmx2g\"";
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

    private static void check(Request request, RunLog log) throws RunError, RunFailure {
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

    /**
     * Runs the check in a new JVM and logs what it logs, as it comes.
     *
     * @param java      the {@code java} executable
     * @param jvmArgs   the forked JVM's options
     * @param classpath the plugin's own jars
     * @throws MojoFailureException   when the check finds violations (as in Maven's JVM)
     * @throws MojoExecutionException when the check cannot run, or the forked JVM ends without a verdict
     */
    static void launch(Log log, Path java, List<String> jvmArgs, List<String> classpath, Request request)
            throws MojoExecutionException, MojoFailureException {
        launch(log, java, jvmArgs, classpath, request, null);
    }

    /**
     * As {@link #launch(Log, Path, List, List, Request)}, with the JVM mapping {@code archive}, or making it when it
     * does not exist yet ({@code null}: none). A JVM that ends before the check begins with the archive's options is
     * started again without them: what it printed is logged only if that one fails too.
     */
    static void launch(Log log, Path java, List<String> jvmArgs, List<String> classpath, Request request,
            ClassArchive archive) throws MojoExecutionException, MojoFailureException {
        Path requestFile = null;
        try {
            requestFile = Files.createTempFile("resilience-check-", ".properties");
            request.write(requestFile);
            List<String> sharing = archive == null ? List.of() : archive.options(log);
            Ended ended;
            if (sharing.isEmpty()) {
                ended = start(log, java, jvmArgs, classpath, requestFile, false);
            } else {
                List<String> withArchive = new ArrayList<>(jvmArgs);
                withArchive.addAll(sharing);
                ended = start(log, java, withArchive, classpath, requestFile, true);
                if (ended.began()) {
                    archive.ended(ended.verdict() != null, log);
                } else {
                    Ended without = start(log, java, jvmArgs, classpath, requestFile, false);
                    if (without.began()) {
                        ended.held().forEach(line -> log.debug("The JVM with the class archive said: " + line));
                        archive.refused(log);
                    } else {
                        archive.ended(false, log);
                    }
                    ended = without;
                }
            }
            String[] end = ended.verdict();
            if (end == null) {
                throw new MojoExecutionException("resilience:check: its JVM (" + ended.command()
                        + ") ended with exit code " + ended.exit() + " before it gave a verdict; its output is above."
                        + " Mend resilience.fork.jvmArgs, or check in Maven's JVM with -Dresilience.fork=false");
            }
            switch (end[0]) {
                case "ok" -> {
                }
                case "failure" -> throw new MojoFailureException(end[1]);
                default -> throw new MojoExecutionException(end[1]);
            }
        } catch (IOException e) {
            throw new MojoExecutionException("resilience:check cannot start its JVM (" + String.join(" ",
                    command(java, jvmArgs)) + "): " + e.getMessage()
                    + ". Check in Maven's JVM with -Dresilience.fork=false", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("resilience:check was interrupted", e);
        } finally {
            if (requestFile != null) {
                try {
                    Files.deleteIfExists(requestFile);
                } catch (IOException e) {
                    log.debug(requestFile + ": cannot delete: " + e.getMessage());
                }
            }
        }
    }

    /**
     * How one forked JVM ended.
     *
     * @param command its command line
     * @param exit    its exit code
     * @param verdict its verdict ({@code kind, text}), or {@code null} when it gave none
     * @param began   whether its check began (it sent its first line)
     * @param held    what it printed before that, when the lines were held rather than logged
     */
    private record Ended(String command, int exit, String[] verdict, boolean began, List<String> held) {
    }

    /**
     * Starts one JVM and logs its lines as they come; with {@code hold}, what it prints before its check begins is
     * held back, to be logged only if another attempt is not made.
     */
    private static Ended start(Log log, Path java, List<String> jvmArgs, List<String> classpath, Path requestFile,
            boolean hold) throws IOException, InterruptedException {
        Process process = null;
        Thread stop = null;
        List<String> command = command(java, jvmArgs);
        String commandLine = String.join(" ", command);
        command.add(requestFile.toString());
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            // On the environment rather than the command line, which Windows bounds at 32,767 characters.
            pb.environment().put("CLASSPATH", String.join(File.pathSeparator, classpath));
            pb.redirectInput(ProcessBuilder.Redirect.PIPE);
            log.debug("Checking in a JVM of its own: " + String.join(" ", command));
            PhaseTime forked = PhaseTime.start(new MavenRunLog(log));
            process = pb.start();
            Process started = process;
            // A build stopped by Ctrl-C stops its check too.
            stop = new Thread(started::destroyForcibly, "resilience-check-stop");
            Runtime.getRuntime().addShutdownHook(stop);
            process.getOutputStream().close();
            Gate gate = new Gate(log, hold);
            Thread errors = new Thread(() -> drain(started, log, gate), "resilience-check-stderr");
            errors.setDaemon(true);
            errors.start();
            String[] end = read(process, log, gate);
            int exit = process.waitFor();
            errors.join();
            log.debug(forked.done("The check's JVM ended with exit code " + exit));
            return new Ended(commandLine, exit, end, gate.opened(), gate.held());
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            if (stop != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(stop);
                } catch (IllegalStateException e) {
                    // Maven's JVM is shutting down: the hook is running or has run.
                }
            }
        }
    }

    /** The forked JVM's command line up to the request file. */
    private static List<String> command(Path java, List<String> jvmArgs) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmArgs);
        command.add(ForkedCheck.class.getName());
        return command;
    }

    /**
     * Where the forked JVM's own lines (not the check's log) go: to the log, or, while held, into a list until the
     * check's first line opens it.
     */
    private static final class Gate {

        /** A line held back, and whether it goes to the debug log. */
        private record Held(String line, boolean debug) {
        }

        private final Log log;
        private boolean holding;
        private boolean opened;
        private final List<Held> held = new ArrayList<>();

        Gate(Log log, boolean hold) {
            this.log = log;
            this.holding = hold;
        }

        synchronized void info(String line) {
            if (holding) {
                held.add(new Held(line, false));
            } else {
                log.info(line);
            }
        }

        synchronized void debug(String line) {
            if (holding) {
                held.add(new Held(line, true));
            } else {
                log.debug(line);
            }
        }

        /** The check has begun: what was held is logged, and the rest goes straight on. */
        synchronized void open() {
            if (!opened) {
                opened = true;
                holding = false;
                held.forEach(h -> {
                    if (h.debug()) {
                        log.debug(h.line());
                    } else {
                        log.info(h.line());
                    }
                });
                held.clear();
            }
        }

        synchronized boolean opened() {
            return opened;
        }

        /** What was held and never logged. */
        synchronized List<String> held() {
            return held.stream().map(Held::line).toList();
        }
    }

    /** Logs the forked JVM's lines until its verdict, which it returns ({@code null} when none came). */
    private static String[] read(Process process, Log log, Gate gate) throws IOException {
        String[] end = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                int space = line.indexOf(' ');
                if (!line.startsWith(MARK) || space < 0) {
                    gate.info(line);
                    continue;
                }
                // The check's own line: its JVM has started and runs the check.
                gate.open();
                String kind = line.substring(MARK.length(), space);
                String text = unescape(line.substring(space + 1));
                switch (kind) {
                    case "debug" -> log.debug(text);
                    case "info" -> log.info(text);
                    case "warn" -> log.warn(text);
                    case "error" -> log.error(text);
                    case "ok", "failure", "fault" -> end = new String[] {kind, text};
                    case "began" -> {
                    }
                    default -> log.info(line);
                }
            }
        }
        return end;
    }

    /** A text on one line: backslashes, line feeds and carriage returns escaped. */
    static String escape(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The text {@link #escape} put on one line. */
    static String unescape(String line) {
        StringBuilder sb = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                char next = line.charAt(++i);
                sb.append(next == 'n' ? '\n' : next == 'r' ? '\r' : next);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static void drain(Process process, Log log, Gate gate) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                // SLF4J's note that it has no binding, in a JVM without Maven's: nothing the user needs to see.
                if (line.startsWith("SLF4J: ")) {
                    gate.debug(line);
                } else {
                    gate.info(line);
                }
            }
        } catch (IOException e) {
            log.debug("cannot read the forked JVM's standard error: " + e.getMessage());
        }
    }

    /** The forked JVM's log: each line goes to Maven's JVM as soon as it is logged. */
    static final class Sender extends LineLog {

        private final PrintStream out;
        private volatile boolean debug;

        Sender(PrintStream out) {
            this.out = out;
        }

        @Override
        synchronized void line(String level, String text) {
            out.println(text(level, text));
        }

        /** The line that sends {@code text} at {@code level}, without its line break. */
        String text(String level, String text) {
            return MARK + level + " " + escape(text);
        }

        /**
         * Sends the verdict of a JVM out of memory for {@code reason}; when even that line cannot be made,
         * {@code madeEarlier}, written as it is (a write that needs no heap).
         */
        synchronized void outOfMemory(String reason, byte[] madeEarlier) {
            try {
                line("fault", outOfMemoryMessage(reason));
            } catch (OutOfMemoryError again) {
                out.write(madeEarlier, 0, madeEarlier.length);
                out.flush();
            }
        }

        @Override
        public boolean isDebugEnabled() {
            return debug;
        }
    }

    /** {@code jvmArgs} split on whitespace. */
    static List<String> splitArgs(String jvmArgs) {
        return jvmArgs == null || jvmArgs.isBlank() ? List.of()
                : Arrays.asList(jvmArgs.trim().split("\\s+"));
    }

    /** Whether any of the JVM options holds any of {@code words}: a choice the team made that the plugin leaves alone. */
    static boolean anyNames(List<String> jvmArgs, String... words) {
        for (String arg : jvmArgs) {
            for (String word : words) {
                if (arg.contains(word)) {
                    return true;
                }
            }
        }
        return false;
    }
}
