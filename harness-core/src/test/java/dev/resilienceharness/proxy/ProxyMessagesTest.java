package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

class ProxyMessagesTest {

    @Test
    void aMissTellsHowToRecord() {
        String m = ProxyMessages.cassetteMiss("0123456789abcdef", "/p/cassettes", null);
        assertEquals("no cassette answers this request: looked for 0123456789abcdef.json in /p/cassettes. To record"
                + " it, run mvn resilience:record, or serve with -Dresilience.mode=record-missing", m);
    }

    @Test
    void aBodyThatDoesNotParseIsToldWithoutTheParsersInternals() {
        JacksonException e = assertThrows(JacksonException.class, () -> Json.readTree("{\n  not"));
        String m = ProxyMessages.notJson(e);
        assertFalse(m.contains("Source"), m);
        assertFalse(m.contains("StreamReadFeature"), m);
        assertTrue(m.startsWith("the request body is not JSON: "), m);
        assertTrue(m.endsWith("(line 2, column 3)"), m);
    }
}
