package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FindingTest {

    private static final String KEY = "sk-proj-FAKEabcdefghijklmnop0123456789";

    @Test
    void fingerprintIsSha256OfRuleNulAndSecret() {
        // python3: hashlib.sha256(b"openai-key\x00" + key).hexdigest()[:16]
        assertEquals("14b47113945def40", Finding.fingerprint(Rule.OPENAI_KEY, KEY));
        assertEquals("750e7f974f62f0af", Finding.fingerprint(Rule.EMAIL_ADDRESS, "fake@mailbox.test"));
    }

    @Test
    void masksToAtMostFourCharactersAndNeverTheWholeSecret() {
        assertEquals("sk-p****", Finding.mask(KEY));
        assertEquals("abcd****", Finding.mask("abcdefghijkl"));
        assertEquals("abc****", Finding.mask("abcdefghi"));
        assertEquals("a****", Finding.mask("abc"));
        assertEquals("****", Finding.mask("ab"));
        assertEquals("****", Finding.mask(""));
        assertEquals("----****", Finding.mask("-----BEGIN RSA PRIVATE KEY-----"));
    }

    @Test
    void ofKeepsOnlyTheMaskedFormAndTheFingerprint() {
        Finding f = Finding.of(Path.of("cassettes/a.json"), 3, 9, "$.request.headers.Authorization", Rule.OPENAI_KEY,
                KEY);
        assertEquals("sk-p****", f.masked());
        assertEquals("14b47113945def40", f.fingerprint());
        assertEquals("openai-key", f.ruleId());
        assertEquals(Path.of("cassettes/a.json") + ":3:9: openai-key at $.request.headers.Authorization: sk-p**** "
                + "(fingerprint 14b47113945def40)", f.toString());
        assertFalse(f.toString().contains(KEY));
    }

    @Test
    void refusesAnUnmaskedValueOrABadFingerprint() {
        Path file = Path.of("a.json");
        assertThrows(IllegalArgumentException.class,
                () -> new Finding(file, 1, 1, "$", Rule.JWT, KEY, "14b47113945def40"));
        assertThrows(IllegalArgumentException.class,
                () -> new Finding(file, 1, 1, "$", Rule.JWT, "sk-p****", "not-a-fingerprint"));
    }

    @Test
    void fingerprintShape() {
        assertTrue(Finding.isFingerprint("0123456789abcdef"));
        assertFalse(Finding.isFingerprint("0123456789ABCDEF"));
        assertFalse(Finding.isFingerprint("0123456789abcde"));
        assertFalse(Finding.isFingerprint(null));
    }
}
