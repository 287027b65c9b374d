package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.json.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class StrippedIdentifiersTest {

    static final byte[] REQUEST = bytes("{\"messages\":[{\"content\":\"hi\",\"role\":\"user\"}],\"model\":\"gpt-5-mini\"}");

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aCompletionWithoutItsIdentifiersGetsStableOnesFromTheRequest() {
        byte[] stripped = bytes("{\"model\":\"gpt-5-mini\",\"choices\":[{\"index\":0}]}");
        JsonNode once = Json.readTree(StrippedIdentifiers.restore(stripped, REQUEST));
        JsonNode again = Json.readTree(StrippedIdentifiers.restore(stripped, REQUEST));
        assertEquals(once, again);
        assertEquals("chat.completion", once.get("object").asString());
        assertEquals(1_767_225_600L, once.get("created").asLong());
        assertEquals("chatcmpl-", once.get("id").asString().substring(0, 9));
        assertEquals(25, once.get("id").asString().length());
        assertEquals("gpt-5-mini", once.get("model").asString());
        assertEquals(0, once.get("choices").get(0).get("index").asInt());
        byte[] other = bytes("{\"messages\":[{\"content\":\"bye\",\"role\":\"user\"}],\"model\":\"gpt-5-mini\"}");
        assertEquals(false, once.get("id").equals(Json.readTree(StrippedIdentifiers.restore(stripped, other))
                .get("id")));
    }

    @Test
    void identifiersThatAreThereAreKept() {
        byte[] partly = bytes("{\"id\":\"chatcmpl-abc\",\"choices\":[]}");
        JsonNode restored = Json.readTree(StrippedIdentifiers.restore(partly, REQUEST));
        assertEquals("chatcmpl-abc", restored.get("id").asString());
        assertEquals(1_767_225_600L, restored.get("created").asLong());
    }

    @Test
    void aCompleteCompletionAndAnyOtherBodyPassUnchanged() {
        byte[] complete = bytes("{\"id\":\"x\",\"object\":\"chat.completion\",\"created\":1,\"choices\":[]}");
        assertArrayEquals(complete, StrippedIdentifiers.restore(complete, REQUEST));
        byte[] error = bytes("{\"error\":{\"message\":\"Rate limit reached\"}}");
        assertArrayEquals(error, StrippedIdentifiers.restore(error, REQUEST));
        byte[] text = bytes("data: {\"choices\":[]}\n\n");
        assertArrayEquals(text, StrippedIdentifiers.restore(text, REQUEST));
    }
}
