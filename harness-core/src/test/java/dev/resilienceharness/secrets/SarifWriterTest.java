package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SarifWriterTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final String KEY = "sk-proj-FAKEabcdefghijklmnop0123456789";

    @Test
    void writesOneRunWithEveryRuleAndOneResultPerFinding(@TempDir Path base) {
        Finding f = Finding.of(base.resolve("src/test/cassettes/ab cd.json"), 7, 15,
                "$.request.headers.Authorization", Rule.OPENAI_KEY, KEY);
        JsonNode sarif = MAPPER.readTree(new SarifWriter(base).render(List.of(f)));
        assertEquals(SarifWriter.SCHEMA, sarif.get("$schema").asString());
        assertEquals("2.1.0", sarif.get("version").asString());
        assertEquals(1, sarif.get("runs").size());
        JsonNode run = sarif.get("runs").get(0);
        JsonNode driver = run.get("tool").get("driver");
        assertEquals("resilience-harness", driver.get("name").asString());
        assertEquals(Rule.values().length, driver.get("rules").size());
        JsonNode rule = driver.get("rules").get(Rule.OPENAI_KEY.ordinal());
        assertEquals("openai-key", rule.get("id").asString());
        assertEquals("OpenAI API key", rule.get("shortDescription").get("text").asString());
        assertEquals(Rule.OPENAI_KEY.help(), rule.get("help").get("text").asString());
        JsonNode result = run.get("results").get(0);
        assertEquals("openai-key", result.get("ruleId").asString());
        assertEquals(Rule.OPENAI_KEY.ordinal(), result.get("ruleIndex").asInt());
        assertEquals("error", result.get("level").asString());
        assertEquals("OpenAI API key (openai-key): sk-p**** at $.request.headers.Authorization",
                result.get("message").get("text").asString());
        JsonNode physical = result.get("locations").get(0).get("physicalLocation");
        assertEquals("src/test/cassettes/ab%20cd.json", physical.get("artifactLocation").get("uri").asString());
        assertEquals(7, physical.get("region").get("startLine").asInt());
        assertEquals(15, physical.get("region").get("startColumn").asInt());
        assertEquals(f.fingerprint(),
                result.get("partialFingerprints").get(SarifWriter.FINGERPRINT_KEY).asString());
    }

    @Test
    void relativeFilesAreResolvedAgainstTheWorkingDirectory(@TempDir Path base) {
        SarifWriter writer = new SarifWriter(Path.of(""));
        assertEquals("cassettes/x.json", writer.uri(Path.of("cassettes", "x.json")));
        assertTrue(new SarifWriter(base.resolve("project")).uri(base.resolve("elsewhere/x.json"))
                .startsWith("file:"));
    }

    @Test
    void writesTheFileAtomically(@TempDir Path base) throws IOException {
        Path target = base.resolve("target/resilience/secrets.sarif");
        new SarifWriter(base).write(List.of(), target);
        JsonNode sarif = MAPPER.readTree(Files.readString(target));
        assertEquals(0, sarif.get("runs").get(0).get("results").size());
        assertFalse(Files.readString(target).contains(KEY));
    }
}
