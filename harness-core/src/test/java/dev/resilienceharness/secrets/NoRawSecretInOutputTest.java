package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders everything the secrets engine can say about the corpus (finding text, masked values, paths, SARIF,
 * baseline file, exception messages, redacted cassettes) and greps it for every planted secret, and for any
 * sixteen-character piece of one that is not also public text (a JWT's standard header, say, which the decoys
 * contain too).
 */
class NoRawSecretInOutputTest {

    private static final int PIECE = 16;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    @Test
    void noOutputContainsAPlantedSecret(@TempDir Path dir) throws Exception {
        Map<String, String> outputs = new LinkedHashMap<>();
        List<Finding> all = new ArrayList<>();
        JsonNode labels = CorpusTest.labels();
        for (Map.Entry<String, JsonNode> file : labels.properties()) {
            String name = file.getKey();
            byte[] content = CorpusTest.read(name);
            List<Finding> findings = new SecretScanner().scan(Path.of("cassettes", name), content);
            all.addAll(findings);
            StringBuilder console = new StringBuilder();
            for (Finding f : findings) {
                console.append(f).append('\n').append(f.masked()).append(' ').append(f.jsonPath()).append(' ')
                        .append(f.location()).append('\n');
            }
            outputs.put(name + " findings", console.toString());
            ObjectNode redacted = new Redactor().redact((ObjectNode) MAPPER.readTree(content));
            outputs.put(name + " redacted", MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(redacted));
            outputs.put(name + " truncated", truncatedMessages(name, content));
        }
        outputs.put("sarif", new SarifWriter(Path.of("")).render(all));
        Path baseline = dir.resolve("baseline.json");
        Baseline.of(all).write(baseline);
        outputs.put("baseline", Files.readString(baseline));
        outputs.put("redaction failure", new RedactionFailedException(all).getMessage());

        StringBuilder publicText = new StringBuilder();
        for (Map.Entry<String, JsonNode> file : labels.properties()) {
            if (file.getKey().startsWith("decoy-")) {
                publicText.append(new String(CorpusTest.read(file.getKey()), StandardCharsets.UTF_8));
            }
        }
        List<String> leaks = new ArrayList<>();
        for (String secret : CorpusTest.plantedSecrets()) {
            for (Map.Entry<String, String> output : outputs.entrySet()) {
                String piece = leakedPiece(secret, output.getValue(), publicText.toString());
                if (piece != null) {
                    leaks.add(output.getKey() + " contains " + Finding.mask(piece) + " of " + Finding.mask(secret));
                }
            }
        }
        if (!leaks.isEmpty()) {
            fail(String.join("\n", leaks));
        }
    }

    @Test
    void theGrepItselfCatchesALeak() {
        String key = "sk-proj-FAKEabcdefghijklmnop0123456789";
        assertEquals("sk-proj-FAKEabcd", leakedPiece(key, "oops: sk-proj-FAKEabcdefgh", ""));
        assertEquals("k-proj-FAKEabcde", leakedPiece(key, "oops: sk-proj-FAKEabcdefgh", "sk-proj-FAKEabcd"));
        assertEquals(null, leakedPiece(key, "sk-p****", ""));
    }

    /** The messages of cutting the file short at the middle of every line: none may quote the content. */
    private static String truncatedMessages(String name, byte[] content) {
        StringBuilder messages = new StringBuilder();
        String text = new String(content, StandardCharsets.UTF_8);
        int from = 0;
        int newline;
        while ((newline = text.indexOf('\n', from)) >= 0) {
            int cut = (from + newline) / 2;
            byte[] shorter = Arrays.copyOf(content, text.substring(0, cut).getBytes(StandardCharsets.UTF_8).length);
            MalformedJsonException e = assertThrows(MalformedJsonException.class,
                    () -> new SecretScanner().scan(Path.of(name), shorter));
            messages.append(e.getMessage()).append('\n');
            from = newline + 1;
        }
        return messages.toString();
    }

    /**
     * A piece of {@code secret} ({@value PIECE} characters, or all of a shorter one) found in {@code output} and
     * not in {@code publicText}.
     */
    private static String leakedPiece(String secret, String output, String publicText) {
        if (secret.length() <= PIECE) {
            return output.contains(secret) ? secret : null;
        }
        for (int i = 0; i + PIECE <= secret.length(); i++) {
            String piece = secret.substring(i, i + PIECE);
            if (output.contains(piece) && !publicText.contains(piece)) {
                return piece;
            }
        }
        return null;
    }
}
