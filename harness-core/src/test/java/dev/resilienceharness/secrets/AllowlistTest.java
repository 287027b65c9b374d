package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AllowlistTest {

    @Test
    void fingerprintsAndWholeMatchRegexes() {
        Allowlist allow = Allowlist.of(List.of("0123456789abcdef", ".*@example\\.test"));
        assertTrue(allow.allows("anything", "0123456789abcdef"));
        assertTrue(allow.allows("fake@example.test", "ffffffffffffffff"));
        assertFalse(allow.allows("fake@example.test.evil", "ffffffffffffffff"));
        assertFalse(allow.allows("other", "ffffffffffffffff"));
        assertFalse(allow.isEmpty());
        assertTrue(Allowlist.NONE.isEmpty());
        assertFalse(Allowlist.NONE.allows("x", "0123456789abcdef"));
    }

    @Test
    void findingsAreAllowedByFingerprint() {
        Finding f = Finding.of(Path.of("a.json"), 1, 1, "$", Rule.EMAIL_ADDRESS, "fake@mailbox.test");
        assertTrue(Allowlist.of(List.of(f.fingerprint())).allows(f));
        assertFalse(Allowlist.of(List.of(".*")).allows(f));
    }

    @Test
    void aBadRegexIsNamedByItsIndex() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Allowlist.of(List.of("ok", "sk-(")));
        assertTrue(e.getMessage().startsWith("redaction.allow[1] is neither a finding fingerprint"),
                e.getMessage());
    }

    @Test
    void aRegexNeedingBacktrackingIsRefusedAndAnyOtherMatchesInLinearTime() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Allowlist.of(List.of("(a)\\1")));
        assertTrue(e.getMessage().startsWith("redaction.allow[0] is a regex the linear-time engine cannot run ("),
                e.getMessage());
        Allowlist slow = Allowlist.of(List.of("(a|aa)+b"));
        String secret = "a".repeat(5_000);
        assertFalse(org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> slow.allows(secret, "0000000000000000")));
    }

    @Test
    void theScannerLeavesAllowedSecretsOut() throws MalformedJsonException {
        String json = "{\"to\": \"fake@example.test\", \"cc\": \"fake@mailbox.test\"}";
        List<Finding> all = new SecretScanner().scan(Path.of("a.json"), json.getBytes());
        assertEquals(2, all.size());
        List<Finding> some = new SecretScanner(Allowlist.of(List.of(".*@example\\.test", all.get(1).fingerprint())))
                .scan(Path.of("a.json"), json.getBytes());
        assertEquals(List.of(), some);
    }
}
