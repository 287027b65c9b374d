package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EmbeddedJsonTest {

    @Test
    void objectsAndArraysMayBeJson() {
        assertTrue(EmbeddedJson.looksLike("{\"api_key\": \"x\"}"));
        assertTrue(EmbeddedJson.looksLike(" \n[1, 2]\t"));
        assertFalse(EmbeddedJson.looksLike("{not closed"));
        assertFalse(EmbeddedJson.looksLike("plain text"));
        assertFalse(EmbeddedJson.looksLike("{"));
        assertFalse(EmbeddedJson.looksLike(""));
    }
}
