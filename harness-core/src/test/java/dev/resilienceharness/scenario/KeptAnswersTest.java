package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.json.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class KeptAnswersTest {

    private static Cassette cassette(String name) {
        return new Cassette(Path.of("cassettes", name + ".json"), name, (ObjectNode) Json.readTree("{\"op\": \"x\"}"),
                Json.readTree("{\"answer\": \"" + name + "\"}"), null);
    }

    @Test
    void keepsTheFirstOfferedUpToItsBytesAndHandsEachOutOnce() {
        KeptAnswers kept = new KeptAnswers(250);
        Cassette a = cassette("a");
        Cassette b = cassette("b");
        Cassette c = cassette("c");
        kept.offer(a, 100);
        kept.offer(b, 100);
        kept.offer(c, 100);  // 300 bytes would not fit
        assertEquals(2, kept.size());
        assertNull(kept.take(c.file()));
        KeptAnswers.Kept taken = kept.take(a.file());
        assertSame(a.response(), taken.reply().body());
        assertEquals(100, taken.bytes());
        assertNull(kept.take(a.file()));
        kept.offer(c, 100);  // room again once one was taken
        assertEquals("c", kept.take(c.file()).reply().body().get("answer").asString());
    }
}
