package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CredentialHeadersTest {

    @ParameterizedTest
    @ValueSource(strings = {"Authorization", "authorization", "AUTHORIZATION", "Proxy-Authorization", "api-key",
        "X-Api-Key", "x-goog-api-key", "X-Amz-Security-Token", "Cookie", "set-cookie"})
    void credentialHeaders(String name) {
        assertTrue(CredentialHeaders.isCredential(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Type", "x-request-id", "api_key", "X-Auth-Token", "authorization-hint"})
    void otherHeaders(String name) {
        assertFalse(CredentialHeaders.isCredential(name), name);
    }

    @Test
    void headersObjectsAreNamedHeaders() {
        assertTrue(CredentialHeaders.isHeaders("headers"));
        assertTrue(CredentialHeaders.isHeaders("Headers"));
        assertFalse(CredentialHeaders.isHeaders("header"));
        assertFalse(CredentialHeaders.isHeaders(null));
    }
}
