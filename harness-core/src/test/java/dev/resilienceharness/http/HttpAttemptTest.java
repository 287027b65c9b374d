package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpAttemptTest {

    @Test
    void pathsAreOneWhateverTheSdkPrefixes() {
        for (String path : List.of("/v1/chat/completions", "v1/chat/completions", "chat/completions",
                "/chat/completions/", "/v1/chat/completions?x=1")) {
            assertEquals("chat/completions", new HttpAttempt("s", "POST", path, Map.of(), new byte[0], null, 0).path());
        }
    }

    @Test
    void headersAreLookedUpIgnoringCase() {
        HttpAttempt a = new HttpAttempt("s", "POST", "messages", Map.of("X-Api-Key", List.of("k")), new byte[0],
                null, 0);
        assertEquals("k", a.header("x-api-key"));
    }

    @Test
    void theStainlessRetryCountIsReadFromItsHeader() {
        assertEquals(2, HttpAttempt.stainlessRetryCount(Map.of("x-stainless-retry-count", List.of("2"))));
        assertEquals(0, HttpAttempt.stainlessRetryCount(Map.of("x-stainless-retry-count", List.of("two"))));
        assertEquals(0, HttpAttempt.stainlessRetryCount(Map.of()));
    }

    @Test
    void aNegativeSdkRetryIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new HttpAttempt("s", "POST", "p", Map.of(), new byte[0],
                null, -1));
    }
}
