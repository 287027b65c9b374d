package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The committed corpus is exactly what {@link SecretCorpus} generates, so labels and files cannot drift. */
class SecretCorpusTest {

    @Test
    void committedCorpusMatchesTheGenerator() throws IOException {
        for (Map.Entry<String, String> file : SecretCorpus.files().entrySet()) {
            String committed = new String(CorpusTest.read(file.getKey()), StandardCharsets.UTF_8);
            assertEquals(file.getValue(), committed, file.getKey() + " differs from the generator: run SecretCorpus");
        }
    }

    @Test
    void encodingsHideTheSecretFromAPlainTextSearch() {
        String secret = "sk-proj-FAKE0123";
        assertEquals(false, SecretCorpus.unicode(secret, 0).contains(secret));
        assertEquals(false, SecretCorpus.percent(secret).contains(secret));
        assertEquals("\"https:\\/\\/x\\/\"", SecretCorpus.slashes("https://x/"));
    }
}
