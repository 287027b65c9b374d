package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The labelled corpus: every planted secret is found, under its rule and path, and nothing else is. */
class CorpusTest {

    static final String CORPUS = "/secrets/corpus/";
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** One expected finding: rule, path and the fingerprint of the planted secret. */
    record Expected(String rule, String path, String fingerprint) {
    }

    static JsonNode labels() throws IOException {
        return MAPPER.readTree(read(SecretCorpus.LABELS));
    }

    static byte[] read(String name) throws IOException {
        try (InputStream in = CorpusTest.class.getResourceAsStream(CORPUS + name)) {
            if (in == null) {
                throw new IOException("missing corpus file " + name);
            }
            return in.readAllBytes();
        }
    }

    /** Every raw secret planted anywhere in the corpus. */
    static List<String> plantedSecrets() throws IOException {
        List<String> secrets = new ArrayList<>();
        for (Map.Entry<String, JsonNode> file : labels().properties()) {
            for (JsonNode e : file.getValue().get("expected")) {
                secrets.add(e.get("secret").asString());
            }
        }
        return secrets;
    }

    @TestFactory
    Stream<DynamicTest> eachFileGivesExactlyItsLabels() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, JsonNode> file : labels().properties()) {
            String name = file.getKey();
            tests.add(DynamicTest.dynamicTest(name, () -> {
                List<Expected> expected = new ArrayList<>();
                for (JsonNode e : file.getValue().get("expected")) {
                    Rule rule = Rule.byId(e.get("rule").asString());
                    expected.add(new Expected(rule.id(), e.get("path").asString(),
                            Finding.fingerprint(rule, e.get("secret").asString())));
                }
                List<Expected> actual = new ArrayList<>();
                for (Finding f : new SecretScanner().scan(Path.of(name), read(name))) {
                    actual.add(new Expected(f.ruleId(), f.jsonPath(), f.fingerprint()));
                }
                List<Expected> missed = minus(expected, actual);
                List<Expected> extra = minus(actual, expected);
                if (!missed.isEmpty() || !extra.isEmpty()) {
                    fail(name + ": missed " + missed + ", false positives " + extra);
                }
            }));
        }
        return tests.stream();
    }

    @Test
    void everyRuleIsPlantedInAtLeastSixEncodings() throws IOException {
        Map<String, Set<String>> encodings = new TreeMap<>();
        for (Map.Entry<String, JsonNode> file : labels().properties()) {
            for (JsonNode e : file.getValue().get("expected")) {
                encodings.computeIfAbsent(e.get("rule").asString(), k -> new HashSet<>())
                        .add(e.get("encoding").asString());
            }
        }
        for (Rule rule : Rule.values()) {
            Set<String> seen = encodings.getOrDefault(rule.id(), Set.of());
            assertTrue(seen.size() >= 6, rule.id() + " is planted in " + seen);
        }
    }

    @Test
    void tokenRulesUseTheSixNamedEncodings() throws IOException {
        Set<String> required = Set.of("plain", "unicode-escaped", "escaped-slashes", "tool-call-arguments",
                "url-query", "header");
        for (Rule rule : Rule.values()) {
            if (rule == Rule.CREDENTIAL_HEADER) {
                // a header rule: its encodings vary the header, not where a token sits
                continue;
            }
            Set<String> seen = new HashSet<>();
            for (Map.Entry<String, JsonNode> file : labels().properties()) {
                for (JsonNode e : file.getValue().get("expected")) {
                    if (e.get("rule").asString().equals(rule.id())) {
                        seen.add(e.get("encoding").asString());
                    }
                }
            }
            assertTrue(seen.containsAll(required), rule.id() + " lacks " + minus(List.copyOf(required),
                    List.copyOf(seen)));
        }
    }

    @Test
    void decoysExist() throws IOException {
        int decoys = 0;
        for (Map.Entry<String, JsonNode> file : labels().properties()) {
            if (file.getKey().startsWith("decoy-")) {
                assertEquals(0, file.getValue().get("expected").size(), file.getKey());
                decoys++;
            }
        }
        assertTrue(decoys >= 5);
    }

    private static <T> List<T> minus(Collection<T> from, Collection<T> remove) {
        Map<T, Integer> counts = new HashMap<>();
        for (T t : remove) {
            counts.merge(t, 1, Integer::sum);
        }
        List<T> out = new ArrayList<>();
        for (T t : from) {
            Integer c = counts.get(t);
            if (c == null || c == 0) {
                out.add(t);
            } else {
                counts.put(t, c - 1);
            }
        }
        return out;
    }
}
