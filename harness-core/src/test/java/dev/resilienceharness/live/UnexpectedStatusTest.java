package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UnexpectedStatusTest {

    @Test
    void namesOpStatusAndAnExcerpt() {
        UnexpectedStatus e = UnexpectedStatus.of("plan", 400, "{\"error\":\n  \"bad model\"}");
        assertEquals("op 'plan': the provider answered HTTP 400, which is neither a quota rejection (429) nor a"
                + " transient error (408, 409, 5xx): {\"error\": \"bad model\"}. Check the request declared for the"
                + " op, the model name and the key", e.getMessage());
        assertEquals("plan", e.op());
        assertEquals(400, e.status());
        assertEquals("{\"error\": \"bad model\"}", e.excerpt());
    }

    @Test
    void aLongBodyIsCutShort() {
        UnexpectedStatus e = UnexpectedStatus.of("plan", 404, "x".repeat(5000));
        assertEquals(LiveMessages.EXCERPT_CHARS + 3, e.excerpt().length());
        assertTrue(e.excerpt().endsWith("..."));
    }

    @Test
    void anEmptyBodyLeavesNoColon() {
        assertTrue(UnexpectedStatus.of("plan", 401, "").getMessage()
                .startsWith("op 'plan': the provider answered HTTP 401, which is neither a quota rejection (429) nor a"
                        + " transient error (408, 409, 5xx). Check"));
    }

    @Test
    void anUnusable200SaysWhy() {
        UnexpectedStatus e = UnexpectedStatus.unusable("patch", "its body is not JSON", "<html>");
        assertEquals(200, e.status());
        assertEquals("op 'patch': the provider answered HTTP 200 but its body is not JSON: <html>", e.getMessage());
    }
}
