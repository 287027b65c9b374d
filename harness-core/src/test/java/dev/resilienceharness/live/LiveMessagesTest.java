package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LiveMessagesTest {

    @Test
    void anExcerptIsOneLineWithoutControlCharacters() {
        assertEquals("a b c", LiveMessages.excerpt("  a\n\tb\u0000\u0007 c  "));
        assertEquals("", LiveMessages.excerpt(null));
        assertEquals("", LiveMessages.excerpt(" \n "));
    }

    @Test
    void aMissingKeyNamesTheVariable() {
        assertTrue(LiveMessages.missingKey("GROQ_KEY").startsWith("set GROQ_KEY to the provider's API key"));
        assertEquals("set GROQ_KEY to the provider's API key (resilience.yaml's provider.api_key_env names it); it is"
                + " read from the environment, sent as a Bearer token and never written anywhere",
                new MissingApiKey("GROQ_KEY").getMessage());
    }

    @Test
    void noProviderSaysWhatToAdd() {
        assertTrue(LiveMessages.NO_PROVIDER.endsWith("add provider.base_url and provider.api_key_env to"
                + " resilience.yaml"));
    }

    @org.junit.jupiter.api.Test
    void aConnectionFailureIsNamedByItsCauseOrItsKind() {
        assertEquals("Connection refused", LiveMessages.reason(new java.io.IOException(null,
                new java.net.ConnectException("Connection refused"))));
        assertEquals("connection refused: nothing listens there", LiveMessages.reason(new java.net.ConnectException()));
        assertEquals("the host name does not resolve", LiveMessages.reason(new java.net.ConnectException() {
            {
                initCause(new java.nio.channels.UnresolvedAddressException());
            }
        }));
    }
}
