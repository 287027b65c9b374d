package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.VolatilePaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real processes record overlapping sets of requests into one folder at once, with different answers for
 * the requests they share. Meanwhile, and afterwards, every cassette file is whole, named by its fingerprint,
 * and holds exactly what one of the two wrote.
 */
class ConcurrentRecordersTest {

    private static final int SIZE = 64 * 1024;
    private static final int ROUNDS = 3;

    @TempDir
    Path dir;

    @Test
    void two_recorders_in_one_folder_do_not_corrupt_each_other() throws Exception {
        Path folder = dir.resolve("cassettes");
        Path go = dir.resolve("go");
        // alpha records op-000..op-029, beta op-015..op-044: fifteen requests both record, differently.
        Map<String, Set<String>> allowed = new HashMap<>();
        expect(allowed, "alpha", 0, 30);
        expect(allowed, "beta", 15, 45);

        Process alpha = start(folder, "alpha", 0, 30, go, dir.resolve("alpha.out"));
        Process beta = start(folder, "beta", 15, 45, go, dir.resolve("beta.out"));
        try {
            CassetteWriteKillTest.awaitReady(alpha, dir.resolve("alpha.out"));
            CassetteWriteKillTest.awaitReady(beta, dir.resolve("beta.out"));
            Files.createFile(go);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            int looks = 0;
            while (alpha.isAlive() || beta.isAlive()) {
                assertTrue(System.nanoTime() < deadline, "the recorders did not finish within two minutes");
                checkFolder(folder, allowed, false);
                looks++;
            }
            assertTrue(looks > 0, "the folder was never read while both were recording");
            assertEquals(0, alpha.waitFor(), Files.readString(dir.resolve("alpha.out")));
            assertEquals(0, beta.waitFor(), Files.readString(dir.resolve("beta.out")));
        } finally {
            alpha.destroyForcibly();
            beta.destroyForcibly();
            alpha.waitFor(30, TimeUnit.SECONDS);
            beta.waitFor(30, TimeUnit.SECONDS);
        }
        checkFolder(folder, allowed, true);
        assertEquals(List.of(), RecorderMain.store(folder).leftoverTemporaryFiles(), "no temporary file left");
    }

    /** Each op's cassette as {@code writer} writes it, in {@code allowed} by file name as text. */
    private void expect(Map<String, Set<String>> allowed, String writer, int from, int to) throws Exception {
        Path scratch = dir.resolve("expected-" + writer);
        CassetteStore store = RecorderMain.store(scratch);
        for (int n = from; n < to; n++) {
            int op = n;
            Cassette c = store.exchange("op-" + n, RecorderMain.request(n), request -> new CassetteStore.Recorded(
                    RecorderMain.response(writer, op, SIZE), new Timing(100L + op, 200L + op)));
            allowed.computeIfAbsent(c.file().getFileName().toString(), k -> new HashSet<>())
                    .add(Files.readString(c.file()));
        }
    }

    private static void checkFolder(Path folder, Map<String, Set<String>> allowed, boolean complete)
            throws Exception {
        CassetteReader reader = new CassetteReader(folder, VolatilePaths.of(List.of()));
        List<String> names = new ArrayList<>();
        for (Path file : RecorderMain.store(folder).files()) {
            String name = file.getFileName().toString();
            names.add(name);
            byte[] bytes = Files.readAllBytes(file);
            Cassette c = reader.parse(file, bytes);
            assertEquals(name, c.fingerprint() + ".json");
            String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(allowed.get(name).contains(text), name + " holds what neither recorder wrote");
        }
        if (complete) {
            String[] want = allowed.keySet().toArray(String[]::new);
            Arrays.sort(want);
            assertEquals(List.of(want), names);
        }
    }

    private static Process start(Path folder, String writer, int from, int to, Path go, Path log) throws Exception {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), RecorderMain.class.getName(),
                folder.toString(), writer, Integer.toString(from), Integer.toString(to), Integer.toString(ROUNDS),
                Integer.toString(SIZE), Integer.toString(from), go.toString());
        return new ProcessBuilder(command).redirectOutput(log.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
