package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenScannerTest {

    /** Records what a pass reports, as readable strings. */
    private static final class Recorder implements TokenScanner.Sink {

        final String text;
        final List<String> events = new ArrayList<>();

        Recorder(String text) {
            this.text = text;
        }

        @Override
        public void secret(Rule rule, int start, int end) {
            events.add(rule.id() + "=" + text.substring(start, end));
        }

        @Override
        public void basic(int start, int end) {
            events.add("basic=" + text.substring(start, end));
        }

        @Override
        public void pair(int nameStart, int nameEnd, int separator) {
            events.add("pair=" + text.substring(nameStart, nameEnd) + text.charAt(separator));
        }
    }

    private static Recorder scan(String text) {
        Recorder r = new Recorder(text);
        TokenScanner.scan(text.toCharArray(), 0, text.length(), r);
        return r;
    }

    @Test
    void reportsEverySecretInOnePass() {
        String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.FAKEsignature0123456789";
        String text = "key sk-proj-FAKEabcdefghijklmnop0123456789, mail fake@mailbox.test, card 4111 1111 1111 1111, "
                + jwt + " and -----BEGIN EC PRIVATE KEY-----\nMIIFAKE\n-----END EC PRIVATE KEY----- done";
        assertEquals(List.of("openai-key=sk-proj-FAKEabcdefghijklmnop0123456789", "email-address=fake@mailbox.test",
                "card-number=4111 1111 1111 1111", "jwt=" + jwt,
                "private-key=-----BEGIN EC PRIVATE KEY-----\nMIIFAKE\n-----END EC PRIVATE KEY-----"), scan(text).events);
    }

    @Test
    void unsignedTokensAreFoundAndDocumentedOnesSkipped() {
        String unsigned = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJmYWtlIn0.";
        assertEquals(List.of("jwt=" + unsigned), scan("token " + unsigned + " end").events);
        String documented = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0"
                + "IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
        assertEquals(List.of(), scan("see " + documented + " on jwt.io").events);
    }

    @Test
    void aKeyGluedToALetterOfAnotherScriptIsNotReported() {
        String key = "hf_FAKEabcdefghijklmnopqrstuvwxyzAB";
        assertEquals(List.of(), scan("Stra\u00dfe" + key).events);
        assertEquals(List.of("huggingface-token=" + key), scan("Stra\u00dfe " + key).events);
        // the text before the scanned range is none of the pass's business
        String text = "\u00df" + key;
        Recorder r = new Recorder(text);
        TokenScanner.scan(text.toCharArray(), 1, text.length(), r);
        assertEquals(List.of("huggingface-token=" + key), r.events);
    }

    @Test
    void reportsPairsBasicTokensAndPercentEscapes() {
        assertEquals(List.of("pair=api_key=", "pair=token:"), scan("x?api_key=abc&\"token\": \"v\"").events);
        assertEquals(List.of("pair=Authorization:", "basic=ZmFrZTpGQUtFcGFzcw=="),
                scan("Authorization: Basic ZmFrZTpGQUtFcGFzcw==").events);
        String escaped = "a%2Db";
        assertEquals(TokenScanner.PERCENT, TokenScanner.scan(escaped.toCharArray(), 0, 5, new Recorder(escaped)));
        String plain = "100% sure";
        assertEquals(0, TokenScanner.scan(plain.toCharArray(), 0, plain.length(), new Recorder(plain)));
    }

    @Test
    void keysInsideLongerWordsAreNotKeys() {
        assertEquals(List.of(), scan("desk-proj-FAKEabcdefghijklmnop0123456789 xAKIAFAKE0123456789AB").events);
    }

    @Test
    void scansOnlyTheRangeItIsGiven() {
        String text = "sk-proj-FAKEabcdefghijklmnop0123456789";
        Recorder r = new Recorder(text);
        TokenScanner.scan(text.toCharArray(), 0, 20, r);
        assertEquals(List.of(), r.events);
    }

    @Test
    void aGitHubInstallationTokenWithAnAppIdAndAJwtIsOneToken() {
        String jwt = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiIxMjM0NSJ9.FAKEq8Zr2Lm5Np0Xv7Tb4Kc1Wd9Ys3Hg";
        String token = "ghs_123456_" + jwt;
        assertEquals(List.of("github-token=" + token), scan("token => \"" + token + "\"").events.subList(1, 2));
        String classic = "ghs_FAKEq8Zr2Lm5Np0Xv7Tb4Kc1Wd9Ys3Hg6Jf01";
        assertEquals(List.of("pair=token=", "github-token=" + classic), scan("token => \"" + classic + "\"").events);
    }

    @Test
    void assignmentsWithSpacesElementsAndSetPropertyCallsArePairs() {
        assertEquals(List.of("pair=API_KEY="), scan("API_KEY = v").events);
        assertEquals(List.of("pair=SECRET_KEY="), scan("SECRET_KEY ?= v").events);
        assertEquals(List.of("pair=apiKey:"), scan("apiKey := v").events);
        assertEquals(List.of("pair=api_key="), scan("\"api_key\" => v").events);
        assertEquals(List.of("pair=apiKey>"), scan("<apiKey>v</apiKey>").events);
        assertEquals(List.of("pair=X_TOKEN,"), scan("setProperty(\"X_TOKEN\", \"v\")").events);
        assertEquals(List.of(), scan("[\"X_TOKEN\", \"v\"] a   = b </x>").events);
    }

    @Test
    void aSlackTokenMaskedWithHashesIsNoToken() {
        assertEquals(List.of(), scan("xoxb-263594206564-2343594206574-########################").events);
        assertEquals(List.of(), scan("xoxp-263594206564-2343594206574-FAKEabcd########").events);
    }
}
