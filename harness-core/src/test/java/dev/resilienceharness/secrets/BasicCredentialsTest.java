package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class BasicCredentialsTest {

    @Test
    void findsTheTokenAfterTheSchemeAndDecodesIt() {
        String token = Base64.getEncoder().encodeToString("fake-user:FAKEpa55w0rd".getBytes(StandardCharsets.UTF_8));
        char[] a = ("Basic " + token + ", more").toCharArray();
        assertTrue(BasicCredentials.isScheme(a, 0, 5));
        int end = BasicCredentials.tokenEnd(a, 5, a.length);
        assertEquals(6 + token.length(), end);
        assertEquals("fake-user:FAKEpa55w0rd", BasicCredentials.decode(a, 6, end));
    }

    @Test
    void refusesWhatIsNotACredentialPair() {
        char[] words = "Basic auth is off".toCharArray();
        assertEquals(-1, BasicCredentials.tokenEnd(words, 5, words.length));
        char[] noColon = Base64.getEncoder().encodeToString("no colon here".getBytes(StandardCharsets.UTF_8))
                .toCharArray();
        assertNull(BasicCredentials.decode(noColon, 0, noColon.length));
        char[] notBase64 = "!!!!".toCharArray();
        assertNull(BasicCredentials.decode(notBase64, 0, notBase64.length));
        assertFalse(BasicCredentials.isScheme("Basics".toCharArray(), 0, 6));
    }
}
