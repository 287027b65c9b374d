package dev.resilienceharness.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.policy.Policy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardMarkerTest {

    @TempDir
    Path dir;

    @Test
    void namesTheShardTheInputsAndWhereEachScenarioStandsInTheYaml() throws Exception {
        List<Scenario> all = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            all.add(new Scenario("s" + i, List.of("plan"), List.of(), Expectations.NONE,
                    Policy.defaults(Duration.ofSeconds(1)), i + 1));
        }
        Shard shard = new Shard(2, 3);
        ShardMarker marker = ShardMarker.of(shard, "ab12", all, Map.of("plan", "c06d109f908d3f58"),
                Path.of("project", "cassettes"));
        assertEquals(Map.of("plan", "c06d109f908d3f58"), marker.fingerprints());
        assertEquals(Path.of("project", "cassettes").toString(), marker.cassettes());
        marker.ops().values().forEach(ops -> assertEquals(List.of("plan"), ops));
        assertEquals(marker.positions().keySet(), marker.ops().keySet());
        for (Map.Entry<String, Integer> e : marker.positions().entrySet()) {
            assertEquals(e.getKey(), all.get(e.getValue()).name());
            assertEquals(true, shard.owns(e.getKey()));
        }
        assertEquals(shard.scenarios(all).size(), marker.positions().size());
        Path file = marker.write(dir);
        assertEquals(dir.resolve("shard.json"), file);
        assertEquals(marker, ShardMarker.read(file));
        String text = Files.readString(file);
        assertEquals(true, text.matches("(?s)\\{\\s*\"format\"\\s*:\\s*1,\\s*\"shard\"\\s*:\\s*\"2/3\",.*\n"), text);
    }

    @Test
    void refusesWhatIsNotAMarker() throws Exception {
        assertEquals("not a shard marker of format 1", problem("{\"format\": 2}"));
        assertEquals("its shard is '5/4', not K/N", problem("{\"format\": 1, \"shard\": \"5/4\"}"));
        assertEquals("it names no inputs digest", problem("{\"format\": 1, \"shard\": \"1/4\"}"));
        assertEquals("it has no 'scenarios' object",
                problem("{\"format\": 1, \"shard\": \"1/4\", \"inputs\": \"ab\"}"));
        assertEquals("scenarios.a is not a position in the yaml",
                problem("{\"format\": 1, \"shard\": \"1/4\", \"inputs\": \"ab\", \"scenarios\": {\"a\": \"x\"}}"));
        assertEquals("it has no 'ops' object",
                problem("{\"format\": 1, \"shard\": \"1/4\", \"inputs\": \"ab\", \"scenarios\": {}}"));
        assertEquals(true, problem("{\"format\": 1,").startsWith("not JSON: "));
        assertThrows(NoSuchFileException.class, () -> ShardMarker.read(dir.resolve("none.json")));
    }

    private String problem(String text) throws IOException {
        Path file = dir.resolve("shard.json");
        Files.writeString(file, text);
        return assertThrows(IOException.class, () -> ShardMarker.read(file)).getMessage();
    }
}
