package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real recording process is killed with SIGKILL at random moments, twenty times. After every kill each
 * {@code *.json} in the folder is a whole cassette named by its fingerprint, holding exactly what was recorded,
 * every write the process reported finished is there, and the cassettes that existed before are byte-identical
 * although the process kept replacing them. Temporary files of interrupted writes are never read as cassettes.
 */
class CassetteWriteKillTest {

    private static final int OPS = 12;
    private static final int PRE_EXISTING = 3;
    private static final int SIZE = 1024 * 1024;
    private static final int KILLS = 20;

    @TempDir
    Path dir;

    @Test
    void killing_a_recording_process_never_leaves_half_a_cassette() throws Exception {
        Path folder = dir.resolve("cassettes");
        // Every byte any write may leave: the same writer records the same op the same way every time.
        Map<String, byte[]> expected = new HashMap<>();
        Path scratch = dir.resolve("expected");
        for (int n = 0; n < OPS; n++) {
            Cassette c = write(RecorderMain.store(scratch), n);
            expected.put(c.fingerprint() + ".json", Files.readAllBytes(c.file()));
        }
        Map<String, byte[]> before = new HashMap<>();
        for (int n = 0; n < PRE_EXISTING; n++) {
            Cassette c = write(RecorderMain.store(folder), n);
            before.put(c.file().getFileName().toString(), Files.readAllBytes(c.file()));
        }

        Random random = new Random(20260101L);
        int leftovers = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            // Starting at a different op each time, so that replacements and first writes both get killed.
            int start = random.nextInt(OPS);
            Path log = dir.resolve("recorder-" + kill + ".out");
            Process recorder = start(folder, start, log);
            try {
                awaitReady(recorder, log);
                if (kill % 2 == 0) {
                    Thread.sleep(random.nextInt(1000));
                } else {
                    // Writing is a small part of recording (most time goes to building and printing the JSON),
                    // so every other kill waits for a temporary file to appear and strikes within milliseconds.
                    awaitTemporaryFile(recorder, folder);
                    Thread.sleep(random.nextInt(5));
                }
            } finally {
                recorder.destroyForcibly(); // SIGKILL on Unix: no shutdown hooks, no finally blocks
                assertTrue(recorder.waitFor(30, TimeUnit.SECONDS), "the recorder did not die");
            }
            // What the process printed is in the file even though it was killed: the kernel holds it.
            List<String> reported = Files.readAllLines(log);

            Set<String> names = new HashSet<>();
            for (Path file : RecorderMain.store(folder).files()) {
                String name = file.getFileName().toString();
                names.add(name);
                Cassette c = new CassetteReader(folder, VolatilePaths.of(List.of())).read(file);
                assertEquals(name, c.fingerprint() + ".json", "named by its fingerprint");
                assertArrayEquals(expected.get(name), Files.readAllBytes(file), name + " after kill " + kill);
            }
            for (Map.Entry<String, byte[]> e : before.entrySet()) {
                assertArrayEquals(e.getValue(), Files.readAllBytes(folder.resolve(e.getKey())),
                        e.getKey() + " existed before and must be byte-identical after kill " + kill);
            }
            for (String line : reported) {
                if (line.startsWith("wrote ")) {
                    assertTrue(names.contains(line.substring(6) + ".json"), "a finished write survives: " + line);
                }
            }
            List<Path> temporary = RecorderMain.store(folder).leftoverTemporaryFiles();
            for (Path tmp : temporary) {
                assertTrue(AtomicFiles.isTemporary(tmp), tmp.toString());
                assertFalse(tmp.getFileName().toString().endsWith(".json"), tmp.toString());
            }
            leftovers += temporary.size();
        }
        // The kills must have hit writes, or this test proved nothing.
        assertTrue(leftovers > 0, "no kill interrupted a write");

        // verify-cassettes reads the cassettes only; each temporary file is one warning, not a cassette.
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                volatile: []
                policy:
                  max_total_wait: 15s
                scenarios:
                  - name: pre-existing
                    ops: [op-000, op-001, op-002]
                """);
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, false);
        assertEquals(List.of(), report.violations());
        assertEquals(RecorderMain.store(folder).files().size(), report.checked());
        long leftoverWarnings = report.warnings().stream().filter(w -> w.contains("left over from a recording"))
                .count();
        assertEquals(RecorderMain.store(folder).leftoverTemporaryFiles().size(), leftoverWarnings);
    }

    /** Waits (at most a minute) until the process has started and says so. */
    static void awaitReady(Process process, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(log) && Files.readString(log).startsWith("ready"))) {
            assertTrue(process.isAlive(), "the process ended before it was ready: " + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, "the process did not start within a minute");
            Thread.sleep(5);
        }
    }

    private static void awaitTemporaryFile(Process process, Path folder) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Set<Path> old = new HashSet<>(RecorderMain.store(folder).leftoverTemporaryFiles());
        while (old.containsAll(RecorderMain.store(folder).leftoverTemporaryFiles())) {
            assertTrue(process.isAlive(), "the recorder ended");
            assertTrue(System.nanoTime() < deadline, "the recorder wrote nothing within a minute");
            LockSupport.parkNanos(50_000);
        }
    }

    private static Cassette write(CassetteStore store, int n) throws Exception {
        return store.exchange("op-" + n, RecorderMain.request(n), request -> new CassetteStore.Recorded(
                RecorderMain.response("recorder", n, SIZE), new Timing(100L + n, 200L + n)));
    }

    private Process start(Path folder, int from, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), RecorderMain.class.getName(),
                folder.toString(), "recorder", "0", Integer.toString(OPS), "0", Integer.toString(SIZE), Integer.toString(from)));
        return new ProcessBuilder(command).redirectOutput(log.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
