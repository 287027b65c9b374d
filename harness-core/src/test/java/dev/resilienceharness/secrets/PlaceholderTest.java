package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PlaceholderTest {

    @Test
    void namesTheRuleAndTheFingerprintsFirstEightHexDigits() {
        String secret = "sk-proj-FAKEabcdefghijklmnop0123456789";
        String fingerprint = Finding.fingerprint(Rule.OPENAI_KEY, secret);
        assertEquals("[REDACTED:openai-key:" + fingerprint.substring(0, 8) + "]", Placeholder.of(Rule.OPENAI_KEY, secret));
        assertEquals(Placeholder.of(Rule.OPENAI_KEY, secret), Placeholder.of(Rule.OPENAI_KEY, secret));
    }
}
