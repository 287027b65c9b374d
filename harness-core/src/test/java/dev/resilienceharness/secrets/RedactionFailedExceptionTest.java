package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedactionFailedExceptionTest {

    @Test
    void listsTheRemainingFindingsMasked() {
        String key = "sk-proj-FAKEabcdefghijklmnop0123456789";
        Finding f = Finding.of(Path.of("x.json"), 1, 1, "$.request.url", Rule.OPENAI_KEY, key);
        RedactionFailedException e = new RedactionFailedException(List.of(f));
        assertEquals(List.of(f), e.remaining());
        assertTrue(e.getMessage().startsWith("redaction left 1 secret in the cassette, so it was not written:"));
        assertTrue(e.getMessage().contains("openai-key at $.request.url: sk-p**** (fingerprint " + f.fingerprint()));
        assertFalse(e.getMessage().contains(key));
    }
}
