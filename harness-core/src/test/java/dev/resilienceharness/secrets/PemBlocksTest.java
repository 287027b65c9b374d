package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PemBlocksTest {

    private static int end(String text, int start) {
        char[] a = text.toCharArray();
        int runEnd = start;
        while (runEnd < a.length && Chars.isToken(a[runEnd])) {
            runEnd++;
        }
        return PemBlocks.end(a, start, runEnd, a.length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY", "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK"})
    void matchesPrivateKeyBlocksThroughTheirEndLine(String label) {
        String block = "-----BEGIN " + label + "-----\nMIIEFAKE+/abc\n-----END " + label + "-----";
        assertEquals(2 + block.length(), end("x\n" + block + "\ntrailer", 2));
    }

    @Test
    void anUnterminatedBlockRunsToTheEndOfTheText() {
        String text = "-----BEGIN RSA PRIVATE KEY-----\nMIIEFAKE and then nothing";
        assertEquals(text.length(), end(text, 0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "\n", "   \n\t", "\n...\n", "\u2026", "\n<your key here>\n", "\nYOUR_PRIVATE_KEY_HERE\n",
        "\n(contents omitted)\n", "\nXXXXXXXXXXXXXXXX\n", "\nPASTE YOUR KEY HERE\n"})
    void armourWithNoKeyMaterialIsNoKey(String body) {
        assertEquals(-1, end("-----BEGIN RSA PRIVATE KEY-----" + body + "-----END RSA PRIVATE KEY-----", 0));
        assertEquals(-1, end("-----BEGIN PRIVATE KEY-----" + body, 0));
    }

    @Test
    void theLookForKeyMaterialStopsAtTheNextArmourLine() {
        String empty = "-----BEGIN PRIVATE KEY-----\n";
        String key = "-----BEGIN EC PRIVATE KEY-----\nMIIFAKE\n-----END EC PRIVATE KEY-----";
        assertEquals(-1, end(empty + key, 0));
        assertEquals(empty.length() + key.length(), end(empty + key, empty.length()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
        "-----BEGIN CERTIFICATE-----\nMIID\n-----END CERTIFICATE-----", "-----BEGINRSA PRIVATE KEY-----",
        "-----BEGIN rsa private key-----"})
    void publicKeysAndCertificatesAreNotSecrets(String text) {
        assertEquals(-1, end(text, 0));
    }

    @Test
    void aBodyThatIsBase64OfTextIsNoKey() {
        String alphabet = java.util.Base64.getEncoder().encodeToString(
                "abcdefghijklmnopqrstuvwxyz".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(-1, end("-----BEGIN PRIVATE KEY-----\n" + alphabet + "\n-----END PRIVATE KEY-----", 0));
        String der = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7FAKE";
        String key = "-----BEGIN PRIVATE KEY-----\n" + der + "\n-----END PRIVATE KEY-----";
        assertEquals(key.length(), end(key, 0));
    }
}
