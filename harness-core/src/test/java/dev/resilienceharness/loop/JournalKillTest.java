package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real process appending to a file journal is killed with SIGKILL, twenty times, half of them while a record
 * is being written. Reopened, the journal holds every complete record in order (every record the process
 * reported durable among them), ignores at most one torn last line with one warning, and the next append
 * cuts that line off.
 */
class JournalKillTest {

    private static final int SIZE = 4 * 1024 * 1024;
    private static final int OPS = 4;
    private static final int KILLS = 20;

    @TempDir
    Path dir;

    @Test
    void a_journal_killed_mid_append_reopens_with_every_complete_record() throws Exception {
        long lineLength = (Json.compact(JournalAppendMain.outcome(0, SIZE).toJson()) + "\n")
                .getBytes(StandardCharsets.UTF_8).length;
        Random random = new Random(20260102L);
        int torn = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            Path journal = dir.resolve("journal-" + kill + ".jsonl");
            Path log = dir.resolve("appender-" + kill + ".out");
            Process appender = start(journal, log);
            try {
                awaitReady(appender, log);
                if (kill % 2 == 0) {
                    Thread.sleep(random.nextInt(300));
                } else {
                    // Strike while a record is being written: the file ends part-way through a line.
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    // If every write slips through, the appender just finishes and this round tears nothing.
                    while (appender.isAlive() && !(Files.exists(journal) && Files.size(journal) % lineLength != 0)) {
                        assertTrue(System.nanoTime() < deadline, "the appender wrote nothing within a minute");
                        LockSupport.parkNanos(50_000); // a 4 MiB write takes milliseconds: this cannot miss it
                    }
                }
            } finally {
                appender.destroyForcibly(); // SIGKILL on Unix: no shutdown hooks, no finally blocks
                assertTrue(appender.waitFor(30, TimeUnit.SECONDS), "the appender did not die");
            }
            long size = Files.exists(journal) ? Files.size(journal) : 0;
            boolean tornTail = size % lineLength != 0;
            torn += tornTail ? 1 : 0;

            List<String> warnings = new ArrayList<>();
            FileJournal reopened = FileJournal.open(journal, warnings::add);
            List<Outcome> completed = reopened.completed();
            assertEquals(size / lineLength, completed.size(), "every complete line is a record");
            for (int n = 0; n < completed.size(); n++) {
                assertEquals(JournalAppendMain.outcome(n, SIZE).toJson(), completed.get(n).toJson(), "record " + n);
            }
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith("recorded op-")) {
                    int n = Integer.parseInt(line.substring("recorded op-".length()));
                    assertTrue(n < completed.size(), "a record reported durable was lost: " + line);
                }
            }
            assertEquals(tornTail ? 1 : 0, warnings.size(), String.join("\n", warnings));
            if (tornTail) {
                assertTrue(warnings.get(0).startsWith(journal + ":" + (completed.size() + 1)
                        + ": ignoring a torn last journal line"), warnings.get(0));
            }

            // The next append cuts the torn line off: the journal is whole again.
            reopened.record(JournalAppendMain.outcome(completed.size(), SIZE));
            List<String> after = new ArrayList<>();
            assertEquals(completed.size() + 1, FileJournal.open(journal, after::add).completed().size());
            assertEquals(List.of(), after);
            assertEquals((completed.size() + 1) * lineLength, Files.size(journal));
            Files.delete(journal);
        }
        // The kills must have torn records, or this test proved nothing.
        assertTrue(torn > 0, "no kill tore a record");
    }

    private static void awaitReady(Process process, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(log) && Files.readString(log).startsWith("ready"))) {
            assertTrue(process.isAlive(), "the appender ended before it was ready: " + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, "the appender did not start within a minute");
            Thread.sleep(5);
        }
    }

    private static Process start(Path journal, Path log) throws Exception {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), JournalAppendMain.class.getName(),
                journal.toString(), Integer.toString(SIZE), Integer.toString(OPS));
        return new ProcessBuilder(command).redirectOutput(log.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
