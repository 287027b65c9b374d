package dev.resilienceharness.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.policy.Policy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ShardTest {

    @Test
    void parsesKOfN() {
        assertEquals(new Shard(2, 8), Shard.parse("2/8"));
        assertEquals(new Shard(1, 1), Shard.parse("1/1"));
        assertEquals(new Shard(1024, 1024), Shard.parse("1024/1024"));
        assertEquals("2/8", Shard.parse("2/8").toString());
        assertTrue(Shard.parse("1/1").whole());
        assertFalse(Shard.parse("1/2").whole());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "2", "0/4", "5/4", "2/0", "-1/4", "+1/4", " 1/4", "1/4 ", "1 /4", "01/4", "1/04",
        "1/1025", "1/4/2", "a/b", "1.0/4", "1/", "/4", "2-8", "99999/99999"})
    void refusesAnythingElseSayingWhatIsExpected(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Shard.parse(text));
        assertEquals("resilience.shard is '" + text + "'; give K/N, the shard to run and how many shards there are,"
                + " with 1 <= K <= N <= 1024 (for example 2/8)", e.getMessage());
    }

    @Test
    void refusesNull() {
        assertThrows(IllegalArgumentException.class, () -> Shard.parse(null));
        assertThrows(IllegalArgumentException.class, () -> new Shard(3, 2));
    }

    @Test
    void theHashIsTheFirstEightBytesOfSha256AsDocumented() {
        // Worked out with Python: int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], 'big', signed=True)
        assertEquals(4808387041692724306L, Shard.hash("s0000"));
        assertEquals(7243933886673455617L, Shard.hash("plan"));
        assertEquals(-3808158816926949438L, Shard.hash("transient-then-ok"));
        assertEquals(-8974366044741022065L, Shard.hash("ünïcode-名前"));
        // ... taken unsigned modulo N: a negative hash does not make a negative shard.
        assertTrue(new Shard(3, 8).owns("transient-then-ok"));
        assertTrue(new Shard(8, 8).owns("ünïcode-名前"));
        assertTrue(new Shard(3, 8).owns("s0000"));
    }

    @Test
    void everyNameBelongsToExactlyOneShardAndTheShardsShareTheWork() {
        int n = 8;
        int[] sizes = new int[n];
        for (int i = 0; i < 4000; i++) {
            String name = "scenario-" + i;
            int owners = 0;
            for (int k = 1; k <= n; k++) {
                if (new Shard(k, n).owns(name)) {
                    owners++;
                    sizes[k - 1]++;
                }
            }
            assertEquals(1, owners, name);
        }
        for (int size : sizes) {
            assertTrue(size > 400 && size < 600, "an eighth of 4000 each, give or take: " + size);
        }
    }

    @Test
    void addingAScenarioMovesNoOther() {
        List<Scenario> before = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            before.add(scenario("s" + i));
        }
        Map<String, Integer> owner = owners(before, 5);
        List<Scenario> after = new ArrayList<>(before);
        after.add(57, scenario("a-new-one"));
        after.remove(0);
        Map<String, Integer> now = owners(after, 5);
        for (Scenario s : after) {
            if (owner.containsKey(s.name())) {
                assertEquals(owner.get(s.name()), now.get(s.name()), s.name());
            }
        }
    }

    @Test
    void scenariosKeepsTheYamlOrder() {
        List<Scenario> all = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            all.add(scenario("s" + i));
        }
        Shard shard = new Shard(2, 3);
        List<Scenario> mine = shard.scenarios(all);
        assertEquals(all.stream().filter(s -> shard.owns(s.name())).toList(), mine);
        assertEquals(all, Shard.WHOLE.scenarios(all));
    }

    @Test
    void cassettesGoByFileNameWhateverTheFolder() {
        Shard shard = new Shard(1, 2);
        assertEquals(shard.ownsFile(Path.of("a", "c06d109f908d3f58.json")),
                shard.ownsFile(Path.of("/elsewhere/cassettes/c06d109f908d3f58.json")));
        assertEquals(shard.owns("c06d109f908d3f58.json"), shard.ownsFile(Path.of("c06d109f908d3f58.json")));
    }

    @Test
    void plansAreDealtInTurn() {
        Shard second = new Shard(2, 3);
        assertFalse(second.ownsPlan(1));
        assertTrue(second.ownsPlan(2));
        assertFalse(second.ownsPlan(3));
        assertTrue(second.ownsPlan(5));
        assertTrue(Shard.WHOLE.ownsPlan(7));
    }

    private static Map<String, Integer> owners(List<Scenario> scenarios, int n) {
        Map<String, Integer> owner = new HashMap<>();
        for (int k = 1; k <= n; k++) {
            for (Scenario s : new Shard(k, n).scenarios(scenarios)) {
                owner.put(s.name(), k);
            }
        }
        return owner;
    }

    private static Scenario scenario(String name) {
        return new Scenario(name, List.of("plan"), List.of(), Expectations.NONE, POLICY, 1);
    }

    private static final Policy POLICY = Policy.defaults(Duration.ofSeconds(30));
}
