package dev.resilienceharness.cassette;

import dev.resilienceharness.json.VolatilePaths;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A recording process for {@link CassetteWriteKillTest} and {@link ConcurrentRecordersTest}: records ops
 * {@code op-<from>} to {@code op-<to - 1>} round after round through a store in record mode, every response
 * {@code size} characters long and telling which writer wrote it. Says {@code ready} once, then {@code wrote
 * <fingerprint>} after each write returns, then {@code done} after the last round.
 *
 * <p>Arguments: cassette folder, writer name, from, to, rounds (0 = until killed), response size, and the op
 * each round starts at (ops after it first, then the ones before); optionally a file to wait for after
 * {@code ready}, so that several recorders start together.
 */
public final class RecorderMain {

    private RecorderMain() {
    }

    /** The request recorded for op number {@code n}. */
    static ObjectNode request(int n) {
        return JsonNodeFactory.instance.objectNode().put("op", String.format("op-%03d", n));
    }

    /** What {@code writer} records for op number {@code n}: deterministic, so a test knows every byte. */
    static ObjectNode response(String writer, int n, int size) {
        StringBuilder content = new StringBuilder(size);
        String unit = writer + " answers op " + n + ". ";
        while (content.length() < size) {
            content.append(unit);
        }
        content.setLength(size);
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        response.put("writer", writer);
        response.putObject("message").put("role", "assistant").put("content", content.toString());
        return response;
    }

    /** A store recording into {@code folder}, as the record goal uses it. */
    static CassetteStore store(Path folder) {
        return new CassetteStore(folder, VolatilePaths.of(List.of()), Mode.RECORD, UnaryOperator.identity());
    }

    public static void main(String[] args) throws Exception {
        Path folder = Path.of(args[0]);
        String writer = args[1];
        int from = Integer.parseInt(args[2]);
        int to = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        int size = Integer.parseInt(args[5]);
        int first = Integer.parseInt(args[6]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        CassetteStore store = store(folder);
        out.println("ready");
        if (args.length > 7) {
            Path go = Path.of(args[7]);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Files.exists(go) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        }
        for (int round = 0; rounds == 0 || round < rounds; round++) {
            for (int i = 0; i < to - from; i++) {
                int n = from + (first - from + i) % (to - from);
                int op = n;
                Cassette c = store.exchange("op-" + n, request(n), request -> new CassetteStore.Recorded(
                        response(writer, op, size), new Timing(100L + op, 200L + op)));
                out.println("wrote " + c.fingerprint());
            }
        }
        out.println("done");
    }
}
