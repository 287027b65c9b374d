package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.testing.TestProject;
import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "complete loop" of docs/src/site/markdown/your-own-loop.md is
 * example/src/test/java/com/example/agent/PoliteLoop.java, word for word, and it
 * is complete: compiled from that file, it keeps every invariant with a crash at each call of a scenario with
 * several ops and faults. Without its checkpoints it overspends after a restart, and the hint names the API.
 */
class PoliteLoopListingTest {

    static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    static final Path LOOP = ROOT.resolve("example/src/test/java/com/example/agent/PoliteLoop.java");
    static final String YAML = """
            version: 1
            policy: {max_attempts: 3, base_delay: 100ms, max_delay: 2s, max_total_wait: 30s}
            loop: com.example.agent.PoliteLoop
            scenarios:
              - name: base
                ops: [plan, patch, review]
                faults: [timeout, none, none, timeout, timeout, timeout, none]
            """;

    @TempDir
    Path dir;

    @Test
    void theDocsListingIsTheFile() throws Exception {
        String page = Files.readString(ROOT.resolve("docs/src/site/markdown/your-own-loop.md"), StandardCharsets.UTF_8);
        int intro = page.indexOf("A complete loop (it is `example/src/test/java/com/example/agent/PoliteLoop.java`");
        assertTrue(intro >= 0, "the page introduces the listing");
        int start = page.indexOf("```java\n", intro) + "```java\n".length();
        int end = page.indexOf("```\n", start);
        assertEquals(Files.readString(LOOP, StandardCharsets.UTF_8), page.substring(start, end));
    }

    @Test
    void itKeepsEveryInvariantWithACrashAtEachCall() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review");
        Rehearsal rehearsal = Rehearsal.prepare(config, loop(Files.readString(LOOP)));
        List<Fault> base = config.scenarios().get(0).faults();
        for (int at = 0; at <= base.size(); at++) {
            ScenarioResult r = rehearsal.check(crashAt(config, at), 2, Rehearsal.RUN_INVARIANTS);
            assertEquals(List.of(), r.violations(), "crash at call " + at);
            assertTrue(r.trace().restarts().size() == 1 || r.calls() <= at, "crash at call " + at + " restarted");
        }
    }

    @Test
    void withoutItsCheckpointsARestartOverspendsAndTheHintNamesTheCheckpointApi() throws Exception {
        String source = Files.readString(LOOP);
        String forgetful = source.replace("run.journal().progress(op)", "Journal.Progress.NONE")
                .replace("run.journal().checkpoint(op, new Journal.Progress(attempts, transientFailures, 0, false));",
                        "");
        assertNotEquals(source, forgetful);
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review");
        Rehearsal rehearsal = Rehearsal.prepare(config, loop(forgetful));
        List<Violation> found = new ArrayList<>();
        for (int at = 0; at <= config.scenarios().get(0).faults().size(); at++) {
            found.addAll(rehearsal.check(crashAt(config, at), 2, Rehearsal.RUN_INVARIANTS).violations());
        }
        assertFalse(found.isEmpty(), "a crash after a retry makes the forgetful loop spend the retries again");
        Violation v = found.get(0);
        assertEquals("budget", v.invariant().id());
        assertEquals("review", v.op());
        assertEquals("4 calls", v.bound());
        assertEquals("5 calls", v.actual());
        assertTrue(v.hint().contains("journal().checkpoint(op, progress)"), v.hint());
        assertTrue(v.hint().contains("journal().progress(op)"), v.hint());
    }

    static Scenario crashAt(HarnessConfig config, int at) {
        Scenario base = config.scenarios().get(0);
        List<Fault> faults = new ArrayList<>(base.faults());
        faults.add(at, CrashFault.INSTANCE);
        return new Scenario("crash-at-" + at, base.ops(), faults, base.expect(), base.policy(), base.line());
    }

    /** The loop compiled from {@code source}, a fresh instance per run as the harness makes them. */
    LoopFactory loop(String source) throws Exception {
        Path src = dir.resolve("src/com/example/agent/PoliteLoop.java");
        Path out = dir.resolve("classes-" + Integer.toHexString(source.hashCode()));
        Files.createDirectories(src.getParent());
        Files.createDirectories(out);
        Files.writeString(src, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classpath = String.join(File.pathSeparator, location(AgentLoop.class),
                location(tools.jackson.databind.JsonNode.class), location(tools.jackson.core.TreeNode.class),
                location(org.apiguardian.api.API.class)); // as a team's test classpath has it, through harness-core
        int status = javac.run(null, null, null, "-d", out.toString(), "-cp", classpath, "--release", "17",
                src.toString());
        assertEquals(0, status, "PoliteLoop.java compiles");
        URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader());
        return LoopFactory.forName("com.example.agent.PoliteLoop", loader);
    }

    static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
