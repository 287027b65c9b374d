package dev.resilienceharness.loop;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A runner process for {@link ProcessKillTest}: runs the built-in loop on a file journal and, when it reaches
 * the op named to hang on, announces it and waits to be killed. Every call is logged before it is answered.
 *
 * <p>Arguments: journal file, call log file, op to hang on, then the ops.
 */
public final class JournaledRunMain {

    private JournaledRunMain() {
    }

    public static void main(String[] args) throws Exception {
        Path journalFile = Path.of(args[0]);
        Path callLog = Path.of(args[1]);
        String hangOn = args[2];
        List<String> ops = Arrays.asList(args).subList(3, args.length);
        FileJournal journal = FileJournal.open(journalFile, System.err::println);
        LoopRun run = new LoopRun(ops, op -> JsonNodeFactory.instance.objectNode().put("op", op), payload -> {
            String op = payload.get("op").asString();
            try {
                Files.writeString(callLog, op + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND, StandardOpenOption.SYNC);
                if (op.equals(hangOn)) {
                    Files.writeString(callLog.resolveSibling("hanging"), op);
                    Thread.sleep(Long.MAX_VALUE);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return Reply.of(JsonNodeFactory.instance.objectNode().put("done", op));
        }, Policy.defaults(Duration.ofSeconds(30)), new VirtualClock(), journal);
        new BuiltinLoop().run(run);
    }
}
