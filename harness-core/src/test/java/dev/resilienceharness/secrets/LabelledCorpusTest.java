package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The labelled corpus {@code secrets/labelled-corpus.json}: every case is placed in a cassette-shaped document
 * and scanned. A case labelled with a rule must give exactly that rule (recall), a benign case must give
 * nothing (false positives); a failure lists every case that went wrong by id.
 */
class LabelledCorpusTest {

    private static final String CORPUS = "/secrets/labelled-corpus.json";
    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final Path FILE = Path.of("cassettes/labelled.json");

    /** Kinds the corpus must cover, each with at least {@link #MIN_PER_KIND} cases. */
    private static final Set<String> KINDS = Set.of("unsigned-jwt", "credential-name", "uuid-token", "uuid-id",
            "openai-service-account", "documented-example", "placeholder", "empty-pem", "hf-inside-word", "csrf",
            "public-key");
    private static final int MIN_PER_KIND = 15;

    /** One labelled case. */
    record Case(String id, String kind, String key, String value, String expected, String in) {
    }

    static List<Case> cases() throws IOException {
        JsonNode root;
        try (InputStream in = LabelledCorpusTest.class.getResourceAsStream(CORPUS)) {
            if (in == null) {
                throw new IOException("missing " + CORPUS);
            }
            root = MAPPER.readTree(in);
        }
        List<Case> cases = new ArrayList<>();
        for (JsonNode c : root.get("cases")) {
            cases.add(new Case(c.get("id").asString(), c.get("kind").asString(), text(c.get("key")),
                    c.get("value").asString(), text(c.get("expected")), text(c.get("in"))));
        }
        return cases;
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asString();
    }

    /**
     * A recorded chat completion with the case in it: under its key in {@code request.body.metadata} (or in
     * {@code request.headers}), or as the user message's content when it has no key.
     */
    static byte[] cassette(Case c) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode request = root.putObject("request");
        request.put("method", "POST");
        request.put("url", "https://llm.example.test/v1/chat/completions");
        ObjectNode headers = request.putObject("headers");
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", "resilience-harness/0.1.0 (Java 17)");
        ObjectNode body = request.putObject("body");
        body.put("model", "gpt-4o-mini");
        body.put("temperature", 0);
        ArrayNode messages = body.putArray("messages");
        ObjectNode system = messages.addObject();
        system.put("role", "system");
        system.put("content", "You are a helpful assistant.");
        ObjectNode user = messages.addObject();
        user.put("role", "user");
        user.put("content", c == null || c.key() != null ? "Summarise the settings below." : c.value());
        ObjectNode metadata = body.putObject("metadata");
        metadata.put("suite", "labelled");
        if (c != null && c.key() != null) {
            (c.in() == null ? metadata : headers).put(c.key(), c.value());
        }
        ObjectNode response = root.putObject("response");
        response.put("status", 200);
        response.putObject("headers").put("x-request-id", "req_0a1b2c3d4e5f60718293a4b5c6d7e8f9");
        ObjectNode answer = response.putObject("body");
        answer.put("id", "chatcmpl-FAKE0123456789abcdefABCDEF");
        answer.put("object", "chat.completion");
        answer.put("system_fingerprint", "fp_44709d6fcb");
        ObjectNode choice = answer.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", "Done.");
        choice.put("finish_reason", "stop");
        answer.putObject("usage").put("prompt_tokens", 42).put("completion_tokens", 3).put("total_tokens", 45);
        return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    }

    private static Set<String> rulesFound(Case c) throws MalformedJsonException {
        Set<String> rules = new TreeSet<>();
        for (Finding f : new SecretScanner().scan(FILE, cassette(c))) {
            rules.add(f.ruleId());
        }
        return rules;
    }

    @Test
    void theCassetteAroundTheCasesIsClean() throws MalformedJsonException {
        assertEquals(List.of(), new SecretScanner().scan(FILE, cassette(null)));
    }

    @Test
    void recallIsCompleteAndNoBenignCaseIsFlagged() throws IOException, MalformedJsonException {
        int positives = 0;
        int found = 0;
        int benign = 0;
        int flagged = 0;
        List<String> failures = new ArrayList<>();
        for (Case c : cases()) {
            Set<String> rules = rulesFound(c);
            if (c.expected() == null) {
                benign++;
                if (!rules.isEmpty()) {
                    flagged++;
                    failures.add("false positive " + c.id() + ": " + rules);
                }
            } else {
                positives++;
                if (rules.equals(Set.of(c.expected()))) {
                    found++;
                } else {
                    failures.add((rules.contains(c.expected()) ? "extra rules for " : "missed ") + c.id()
                            + ": expected " + c.expected() + ", found " + rules);
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.format("recall %d/%d, false positives %d/%d%n%s", found, positives, flagged, benign,
                    String.join("\n", failures)));
        }
    }

    @Test
    void everyKindHasEnoughCasesAndIdsAreUnique() throws IOException {
        Map<String, Integer> perKind = new TreeMap<>();
        Set<String> ids = new HashSet<>();
        for (Case c : cases()) {
            perKind.merge(c.kind(), 1, Integer::sum);
            assertTrue(ids.add(c.id()), "duplicate id " + c.id());
            if (c.expected() != null) {
                assertTrue(Rule.byId(c.expected()) != null, c.id() + ": no rule " + c.expected());
            }
        }
        for (String kind : KINDS) {
            assertTrue(perKind.getOrDefault(kind, 0) >= MIN_PER_KIND, kind + " has " + perKind.get(kind));
        }
        for (Rule rule : Rule.values()) {
            assertTrue(perKind.getOrDefault("regression-" + rule.id(), 0) >= 3,
                    rule.id() + " has too few regression cases");
        }
    }
}
