package dev.resilienceharness.loop;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * An appending process for {@link JournalKillTest}: opens a file journal and records ops {@code op-0000},
 * {@code op-0001}... after those already journaled, each outcome carrying a value of {@code size} characters, so
 * that every journal line has the same length. Says {@code ready}, then {@code recorded <op>} after each
 * record returns (fsynced), then {@code done}.
 *
 * <p>Arguments: journal file, value size, how many ops to record in all.
 */
public final class JournalAppendMain {

    private JournalAppendMain() {
    }

    static String op(int n) {
        return String.format("op-%04d", n);
    }

    /** The outcome recorded for op number {@code n}: deterministic, so a test knows every byte. */
    static Outcome outcome(int n, int size) {
        StringBuilder content = new StringBuilder(size);
        while (content.length() < size) {
            content.append("finished ").append(op(n)).append(". ");
        }
        content.setLength(size);
        JsonNode value = JsonNodeFactory.instance.objectNode().put("content", content.toString());
        return Outcome.ok(op(n), value, 1 + n % 3);
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int size = Integer.parseInt(args[1]);
        int total = Integer.parseInt(args[2]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        FileJournal journal = FileJournal.open(file, System.err::println);
        out.println("ready");
        for (int n = journal.completed().size(); n < total; n++) {
            journal.record(outcome(n, size));
            out.println("recorded " + op(n));
        }
        out.println("done");
    }
}
