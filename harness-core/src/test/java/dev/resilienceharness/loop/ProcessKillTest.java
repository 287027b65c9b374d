package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A real runner process is killed with SIGKILL mid-run; a fresh one resumes from its journal, re-calls no
 * finished op and loses none.
 */
class ProcessKillTest {

    @TempDir
    Path dir;

    @Test
    void a_killed_runner_resumes_from_its_journal() throws Exception {
        Path journal = dir.resolve("journal.jsonl");
        Path calls = dir.resolve("calls.log");
        List<String> ops = List.of("plan", "read", "patch", "test", "review");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), JournaledRunMain.class.getName(),
                journal.toString(), calls.toString(), "test"));
        command.addAll(ops);
        Process runner = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("runner.out").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(dir.resolve("hanging")) && runner.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(Files.exists(dir.resolve("hanging")), "the runner never reached op 'test': "
                    + (Files.exists(dir.resolve("runner.out")) ? Files.readString(dir.resolve("runner.out")) : ""));
        } finally {
            runner.destroyForcibly(); // SIGKILL on Unix: no shutdown hooks, no flushing
            assertTrue(runner.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(List.of("plan", "read", "patch", "test"), Files.readAllLines(calls));

        FileJournal resumed = FileJournal.open(journal, w -> { });
        List<Outcome> before = resumed.completed();
        assertEquals(List.of("plan", "read", "patch"), before.stream().map(Outcome::op).toList());

        List<String> calledAfter = new ArrayList<>();
        List<Outcome> outcomes = new BuiltinLoop().run(new LoopRun(ops,
                op -> JsonNodeFactory.instance.objectNode().put("op", op), payload -> {
                    calledAfter.add(payload.get("op").asString());
                    return Reply.of(JsonNodeFactory.instance.objectNode().put("done", payload.get("op").asString()));
                }, Policy.defaults(Duration.ofSeconds(30)), new VirtualClock(), resumed));

        assertEquals(List.of("test", "review"), calledAfter, "no finished op is called again");
        assertEquals(ops, outcomes.stream().map(Outcome::op).toList(), "every op accounted for once, in order");
        for (int i = 0; i < before.size(); i++) {
            assertEquals(before.get(i).toJson(), outcomes.get(i).toJson(), "kept as first recorded");
        }
        assertEquals(5, FileJournal.open(journal, w -> { }).completed().size());
    }
}
