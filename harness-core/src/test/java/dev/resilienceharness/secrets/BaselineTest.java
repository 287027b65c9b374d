package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineTest {

    private static final Finding MAIL = Finding.of(Path.of("a.json"), 3, 9, "$.to", Rule.EMAIL_ADDRESS,
            "fake@mailbox.test");
    private static final Finding KEY = Finding.of(Path.of("b.json"), 5, 2, "$.key", Rule.OPENAI_KEY,
            "sk-proj-FAKEabcdefghijklmnop0123456789");

    @Test
    void writesSortedJsonAndReadsItBack(@TempDir Path dir) throws IOException, MalformedJsonException {
        Path file = dir.resolve("secrets-baseline.json");
        Baseline.of(List.of(MAIL, KEY, MAIL)).write(file);
        assertEquals("""
                {
                  "version" : 1,
                  "accepted" : [ {
                    "fingerprint" : "14b47113945def40",
                    "rule" : "openai-key",
                    "masked" : "sk-p****"
                  }, {
                    "fingerprint" : "750e7f974f62f0af",
                    "rule" : "email-address",
                    "masked" : "fake****"
                  } ]
                }
                """, Files.readString(file));
        Baseline read = Baseline.read(file);
        assertEquals(Set.of(MAIL.fingerprint(), KEY.fingerprint()), read.fingerprints());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void acceptsByFingerprintWhereverTheSecretMoved() {
        Baseline baseline = Baseline.of(List.of(MAIL));
        Finding moved = Finding.of(Path.of("other.json"), 40, 1, "$.cc", Rule.EMAIL_ADDRESS, "fake@mailbox.test");
        assertTrue(baseline.accepts(moved));
        assertFalse(baseline.accepts(KEY));
        assertEquals(List.of(KEY), baseline.unaccepted(List.of(MAIL, KEY, moved)));
        assertEquals(List.of(KEY), Baseline.empty().unaccepted(List.of(KEY)));
    }

    @Test
    void aMalformedBaselineNamesTheFileAndTheProblem(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("baseline.json");
        Files.writeString(file, "{\n  \"version\": 1,\n  \"accepted\": [ oops ]\n}");
        MalformedJsonException syntax = assertThrows(MalformedJsonException.class, () -> Baseline.read(file));
        assertTrue(syntax.getMessage().startsWith(file + ":3:"), syntax.getMessage());
        Files.writeString(file, "{\"version\": 2, \"accepted\": []}");
        assertEquals(file + ": not a baseline file: \"version\" must be 1; fix the baseline file or delete it and "
                + "write a new one", assertThrows(MalformedJsonException.class, () -> Baseline.read(file)).getMessage());
        Files.writeString(file, "{\"version\": 1, \"accepted\": [{\"fingerprint\": \"XYZ\"}]}");
        assertTrue(assertThrows(MalformedJsonException.class, () -> Baseline.read(file)).getMessage()
                .contains("accepted[0].fingerprint must be 16 lowercase hex digits"));
    }

    @Test
    void aHandEditedNoteThatIsNotMaskedIsDropped(@TempDir Path dir) throws IOException, MalformedJsonException {
        Path file = dir.resolve("baseline.json");
        String secret = "sk-proj-FAKEabcdefghijklmnop0123456789";
        Files.writeString(file, "{\"version\": 1, \"accepted\": [{\"fingerprint\": \"" + KEY.fingerprint()
                + "\", \"rule\": \"openai-key\", \"masked\": \"" + secret + "\"}]}");
        Baseline.read(file).write(file);
        assertFalse(Files.readString(file).contains(secret));
        assertTrue(Baseline.read(file).accepts(KEY));
    }

    @Test
    void aBaselineThatIsAPipeOrALinkToADeviceIsRefusedAtOnce(@TempDir Path dir) throws IOException {
        Path fifo = dir.resolve("fifo.json");
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.resilienceharness.files.BoundedFileTest.mkfifo(fifo));
        IOException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> assertThrows(IOException.class, () -> Baseline.read(fifo)));
        assertEquals(fifo + ": is a named pipe (fifo), not a regular file; it was not opened", e.getMessage());
        Path zero = Files.createSymbolicLink(dir.resolve("zero.json"), Path.of("/dev/zero"));
        IOException z = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> assertThrows(IOException.class, () -> Baseline.read(zero)));
        assertEquals(zero + ": is a character device, not a regular file; it was not opened", z.getMessage());
    }
}
