package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class CassetteStoreTest {

    private static final VolatilePaths NONE = VolatilePaths.of(List.of());

    @TempDir
    Path dir;

    private static ObjectNode json(String text) {
        return (ObjectNode) Json.readTree(text);
    }

    /** A live provider that answers {"live": <n>} and remembers what it was sent. */
    private static final class Provider implements CassetteStore.LiveCall {
        final List<String> sent = new ArrayList<>();

        @Override
        public CassetteStore.Recorded call(ObjectNode request) {
            sent.add(request.toString());
            return new CassetteStore.Recorded(json("{\"live\": " + sent.size() + "}"), null);
        }
    }

    private CassetteStore store(Mode mode) {
        return new CassetteStore(dir, NONE, mode, UnaryOperator.identity());
    }

    @Test
    void replays_a_recorded_request() throws Exception {
        CassetteStore store = CassetteStore.replaying(dir, NONE);
        store.write(json("{\"op\": \"plan\"}"), json("{\"done\": \"plan\"}"), new Timing(420L, null));
        Cassette c = CassetteStore.replaying(dir, NONE).replay("plan", json("{\"op\": \"plan\"}"));
        assertEquals("{\"done\":\"plan\"}", c.response().toString());
        assertEquals(new Timing(420L, null), c.timing());
    }

    @Test
    void a_miss_names_the_op_the_fingerprint_the_nearest_file_and_the_differing_paths() throws Exception {
        CassetteStore store = CassetteStore.replaying(dir, NONE);
        Cassette plan = store.write(json("{\"op\": \"plan\", \"model\": \"m-1\", \"temperature\": 0}"), json("{}"), null);
        store.write(json("{\"op\": \"review\", \"model\": \"m-2\", \"stream\": true}"), json("{}"), null);
        ObjectNode request = json("{\"op\": \"patch\", \"model\": \"m-1\", \"temperature\": 0}");
        CassetteMiss miss = assertThrows(CassetteMiss.class,
                () -> CassetteStore.replaying(dir, NONE).replay("patch", request));
        assertEquals("patch", miss.op());
        assertEquals(store.fingerprint(request), miss.fingerprint());
        assertEquals(plan.file().getFileName().toString(), miss.nearestFile());
        assertEquals(List.of("op"), miss.differingPaths());
        assertTrue(miss.getMessage().contains("looked for " + miss.fingerprint() + ".json"), miss.getMessage());
        assertTrue(miss.getMessage().contains("differs at op."), miss.getMessage());
    }

    @Test
    void a_miss_in_an_empty_or_absent_folder_has_no_nearest_request() {
        CassetteMiss miss = assertThrows(CassetteMiss.class,
                () -> CassetteStore.replaying(dir.resolve("none"), NONE).replay("plan", json("{\"op\": \"plan\"}")));
        assertNull(miss.nearestFile());
        assertTrue(miss.getMessage().contains("the cassette folder holds no cassette"));
    }

    @Test
    void a_broken_file_is_never_the_nearest_request() throws Exception {
        Files.writeString(dir.resolve("0000000000000000.json"), "{\"request\": {\"op\": \"patch\"", StandardCharsets.UTF_8);
        CassetteStore store = CassetteStore.replaying(dir, NONE);
        Cassette review = store.write(json("{\"op\": \"review\"}"), json("{}"), null);
        CassetteMiss miss = assertThrows(CassetteMiss.class, () -> store.replay("patch", json("{\"op\": \"patch\"}")));
        assertEquals(review.file().getFileName().toString(), miss.nearestFile());
    }

    @Test
    void replay_mode_never_calls_the_provider() throws Exception {
        Provider provider = new Provider();
        assertThrows(CassetteMiss.class, () -> store(Mode.REPLAY).exchange("plan", json("{\"op\": \"plan\"}"), provider));
        assertEquals(List.of(), provider.sent);
        assertEquals(List.of(), store(Mode.REPLAY).files());
    }

    @Test
    void record_missing_calls_the_provider_only_for_requests_without_a_cassette() throws Exception {
        store(Mode.REPLAY).write(json("{\"op\": \"plan\"}"), json("{\"done\": \"plan\"}"), null);
        Provider provider = new Provider();
        CassetteStore store = store(Mode.RECORD_MISSING);
        assertEquals("{\"done\":\"plan\"}", store.exchange("plan", json("{\"op\": \"plan\"}"), provider).response().toString());
        assertEquals(List.of(), provider.sent);
        assertEquals("{\"live\":1}", store.exchange("patch", json("{\"op\": \"patch\"}"), provider).response().toString());
        assertEquals(List.of("{\"op\":\"patch\"}"), provider.sent);
        store.exchange("patch", json("{\"op\": \"patch\"}"), provider);
        assertEquals(1, provider.sent.size(), "recorded once, replayed after");
        assertEquals(2, store.files().size());
    }

    @Test
    void record_calls_the_provider_every_time_and_overwrites() throws Exception {
        store(Mode.REPLAY).write(json("{\"op\": \"plan\"}"), json("{\"done\": \"plan\"}"), null);
        Provider provider = new Provider();
        CassetteStore store = store(Mode.RECORD);
        store.exchange("plan", json("{\"op\": \"plan\"}"), provider);
        Cassette second = store.exchange("plan", json("{\"op\": \"plan\"}"), provider);
        assertEquals(2, provider.sent.size());
        assertEquals("{\"live\":2}", second.response().toString());
        assertEquals("{\"live\":2}", CassetteStore.replaying(dir, NONE).replay("plan", json("{\"op\": \"plan\"}"))
                .response().toString(), "the file on disk holds the latest exchange");
    }

    @Test
    void a_written_cassette_is_stripped_of_volatile_paths_and_named_by_its_fingerprint() throws Exception {
        VolatilePaths volatilePaths = VolatilePaths.of(List.of("request.metadata.trace_id", "response.id",
                "response.created"));
        CassetteStore store = CassetteStore.replaying(dir, volatilePaths);
        ObjectNode request = json("{\"op\": \"plan\", \"metadata\": {\"trace_id\": \"t-1\"}}");
        Cassette c = store.write(request, json("{\"id\": \"chatcmpl-1\", \"created\": 1767225600, \"done\": \"plan\"}"),
                new Timing(420L, 1800L));
        assertEquals(dir.resolve(store.fingerprint(json("{\"op\": \"plan\", \"metadata\": {}}")) + ".json"), c.file());
        assertEquals("""
                {
                  "request": {
                    "op": "plan",
                    "metadata": {}
                  },
                  "response": {
                    "done": "plan"
                  },
                  "timing": {
                    "first_token_ms": 420,
                    "total_ms": 1800
                  }
                }""", Files.readString(c.file(), StandardCharsets.UTF_8));
        assertEquals("t-1", request.get("metadata").get("trace_id").asString(), "the caller's request is not changed");
        Cassette again = CassetteStore.replaying(dir, volatilePaths)
                .replay("plan", json("{\"op\": \"plan\", \"metadata\": {\"trace_id\": \"t-2\"}}"));
        assertEquals(c.file(), again.file(), "another trace id finds the same cassette");
    }

    @Test
    void before_write_is_the_last_change_before_the_cassette_touches_disk() throws Exception {
        UnaryOperator<ObjectNode> redact = cassette -> {
            ((ObjectNode) cassette.get("response")).put("token", "[REDACTED]");
            return cassette;
        };
        CassetteStore store = new CassetteStore(dir, NONE, Mode.RECORD, redact);
        Cassette c = store.exchange("plan", json("{\"op\": \"plan\"}"),
                request -> new CassetteStore.Recorded(json("{\"token\": \"sk-secret\"}"), null));
        String onDisk = Files.readString(c.file(), StandardCharsets.UTF_8);
        assertFalse(onDisk.contains("sk-secret"), onDisk);
        assertTrue(onDisk.contains("[REDACTED]"), onDisk);
        assertEquals("[REDACTED]", c.response().get("token").asString());
    }

    @Test
    void files_lists_only_cassettes_sorted_by_name() throws Exception {
        CassetteStore store = CassetteStore.replaying(dir, NONE);
        Cassette b = store.write(json("{\"op\": \"b\"}"), json("{}"), null);
        Cassette a = store.write(json("{\"op\": \"a\"}"), json("{}"), null);
        Files.writeString(dir.resolve("notes.txt"), "x");
        Files.writeString(dir.resolve("README.md"), "x");
        Files.writeString(dir.resolve("." + a.file().getFileName() + ".123.tmp"), "{\"request\": {");
        Files.writeString(dir.resolve("x.json.bak"), "{}");
        List<Path> expected = new ArrayList<>(List.of(a.file(), b.file()));
        expected.sort(null);
        assertEquals(expected, store.files());
        assertEquals(List.of(), CassetteStore.replaying(dir.resolve("absent"), NONE).files());
    }

    @Test
    void one_listing_finds_the_cassettes_and_the_leftovers_of_interrupted_writes() throws Exception {
        CassetteStore store = CassetteStore.replaying(dir, NONE);
        Cassette a = store.write(json("{\"op\": \"a\"}"), json("{}"), null);
        Path hidden = Files.writeString(dir.resolve(".hidden.json"), "{}");
        Path later = Files.writeString(dir.resolve(".z" + a.file().getFileName() + ".9.tmp"), "{");
        Path earlier = Files.writeString(dir.resolve("." + a.file().getFileName() + ".1.tmp"), "{");
        Files.writeString(dir.resolve(".tmp"), "not a leftover: no name before the suffix");
        Files.writeString(dir.resolve("x.tmp"), "not a leftover: not hidden");
        Files.createDirectory(dir.resolve("sub"));

        CassetteStore.Listing listing = store.listing();
        List<Path> cassettes = new ArrayList<>(List.of(a.file(), hidden));
        cassettes.sort(null);
        assertEquals(cassettes, listing.cassettes());
        assertEquals(List.of(earlier, later), listing.leftovers());
        assertEquals(listing.cassettes(), store.files());
        assertEquals(listing.leftovers(), store.leftoverTemporaryFiles());
        CassetteStore.Listing absent = CassetteStore.replaying(dir.resolve("absent"), NONE).listing();
        assertEquals(List.of(), absent.cassettes());
        assertEquals(List.of(), absent.leftovers());
    }

    @Test
    void writing_leaves_no_temporary_file_behind() throws Exception {
        CassetteStore.replaying(dir, NONE).write(json("{\"op\": \"plan\"}"), json("{}"), null);
        try (var listing = Files.list(dir)) {
            assertEquals(1, listing.count());
        }
    }
}
