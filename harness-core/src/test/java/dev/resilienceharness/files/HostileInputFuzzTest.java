package dev.resilienceharness.files;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.transport.ToolCallSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Mutated yamls and cassettes, spliced with the hostile pieces issue 50 found (cyclic and outside {@code $ref}s,
 * backtracking patterns, alias bombs, huge keys and numbers, files that are no yaml at all), thrown at the readers:
 * each answers in seconds with its own exception or a value, never another exception, an error such as a stack
 * overflow or an out-of-memory, a stack trace in its message, or the content of a file that is not what it should be.
 */
class HostileInputFuzzTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final Path YAML = Path.of("fuzz", "resilience.yaml");
    private static final Path CASSETTE = Path.of("fuzz", "cassettes", "c06d109f908d3f58.json");
    private static final CassetteReader READER = new CassetteReader(CASSETTE.getParent(), VolatilePaths.of(List.of()));
    private static final String CANARY = "CANARYxq7Zt";

    private static final String SEED_YAML = """
            version: 1
            cassettes: cassettes
            policy: {max_total_wait: 30s}
            redaction:
              allow: ['.*@example\\\\.test', 0123456789abcdef]
            requests:
              plan: {model: m, tools: [{type: function, function: {name: slug, parameters: {type: object,\
             properties: {s: {type: string, pattern: '^[a-z]+$'}}}}}]}
              patch:
                model: &m m-1
                messages: [{role: user, content: patch}]
                again: *m
            scenarios:
              - name: s
                ops: [plan, patch]
            """;

    private static final String SEED_CASSETTE = """
            {"request": {"model": "m", "tools": [{"type": "function", "function": {"name": "slug",
              "parameters": {"type": "object", "properties": {"s": {"type": "string", "pattern": "^[a-z]+$"}}}}}]},
             "response": {"choices": [{"message": {"tool_calls": [{"function": {"name": "slug",
              "arguments": "{\\"s\\": \\"abc\\"}"}}]}}]},
             "timing": {"first_token_ms": 1, "total_ms": 2}}
            """;

    /** Pieces that each broke a reader once; spliced anywhere, they make most files invalid in new ways. */
    private static final List<String> HOSTILE_YAML = List.of("{$ref: '#'}", "{$ref: 'file:///etc/passwd'}",
            "{type: 12}", "'^([a-z0-9]+[-_]?){1,50}$'", "'(a)\\\\1'", "'" + "a".repeat(40) + "!'",
            "&big " + "x".repeat(200_000), "[*big, *big, *big, *big, *big, *big, *big, *big, *big, *big, *big, *big,"
                    + " *big, *big, *big, *big, *big, *big, *big, *big, *big, *big, *big]", "k".repeat(100_000) + ": 1",
            "1" + "0".repeat(1_001), "[".repeat(200), "{$ref: '#/$defs/a', $defs: {a: {allOf: [{$ref: '#'}]}}}",
            "\n  - *nope", "!!binary AAAA", "\t", "\u0000", "\uFEFF", ": :", "&a [*a]");

    private static final List<String> HOSTILE_JSON = List.of("{\"$ref\": \"#\"}", "{\"$ref\": \"file:///etc/passwd\"}",
            "{\"type\": 12}", "\"^([a-z0-9]+[-_]?){1,50}$\"", "\"(a)\\\\1\"", "\\\"" + "a".repeat(40) + "!\\\"",
            "1" + "0".repeat(1_001), "[".repeat(600), "\"" + "k".repeat(100_000) + "\": 1",
            "{\"$ref\": \"#/$defs/a\", \"$defs\": {\"a\": {\"anyOf\": [{\"$ref\": \"#\"}]}}}", "1e999", "\u0000",
            "\"pattern\": \"^([a-z0-9]+[-_]?){1,50}$\"");

    /** Files that are no yaml and no cassette, each holding a value that must never reach a log. */
    private static final List<String> NOT_OURS = List.of(
            "machine api.example.test login ci password " + CANARY + "\n",
            "root:x:0:0:" + CANARY + ":/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA" + CANARY + "\n-----END OPENSSH PRIVATE KEY-----\n",
            "API_TOKEN=" + CANARY + "\n");

    @Property(tries = 150)
    void mutatedYamlsAreReadOrRefusedCleanly(@ForAll("yamls") String yaml) {
        String message = assertTimeoutPreemptively(BOUND, () -> {
            try {
                ConfigLoader.load(YAML, yaml.getBytes(UTF_8));
                return null;
            } catch (ConfigException e) {
                return e.getMessage();
            }
        });
        clean(message);
    }

    @Property(tries = 150)
    void mutatedCassettesAreReadOrRefusedCleanly(@ForAll("cassettes") String cassette) {
        String message = assertTimeoutPreemptively(BOUND, () -> {
            try {
                var read = READER.parse(CASSETTE, cassette.getBytes(UTF_8));
                // A cassette that was read is replayed: its tool calls are checked against its own schemas.
                new ToolCallSchema().problem(read.request(), read.response());
                return null;
            } catch (CassetteException e) {
                return e.getMessage();
            }
        });
        clean(message);
    }

    @Property(tries = 100)
    void aFileThatIsNoYamlOrCassetteIsNamedNeverQuoted(@ForAll("notOurs") String content) {
        String asConfig = assertTimeoutPreemptively(BOUND, () -> {
            try {
                ConfigLoader.load(YAML, content.getBytes(UTF_8));
                return null;
            } catch (ConfigException e) {
                return e.getMessage();
            }
        });
        String asCassette = assertTimeoutPreemptively(BOUND, () -> {
            try {
                READER.parse(CASSETTE, content.getBytes(UTF_8));
                return null;
            } catch (CassetteException e) {
                return e.getMessage();
            }
        });
        for (String message : new String[] {asConfig, asCassette}) {
            clean(message);
            assertTrue(message == null || !message.contains(CANARY), message);
        }
    }

    private static void clean(String message) {
        if (message == null) {
            return;
        }
        assertTrue(message.length() < 2_000, "a message of " + message.length() + " characters");
        for (String trace : List.of("\tat ", "Exception:", "Error:", "StackOverflow", "OutOfMemory", "internal error")) {
            assertFalse(message.contains(trace), message);
        }
    }

    @Provide
    Arbitrary<String> yamls() {
        return mutated(SEED_YAML, HOSTILE_YAML);
    }

    @Provide
    Arbitrary<String> cassettes() {
        return mutated(SEED_CASSETTE, HOSTILE_JSON);
    }

    @Provide
    Arbitrary<String> notOurs() {
        // Only letters change, and lines are dropped or doubled: no mutation turns the file into a mapping.
        return Combinators.combine(Arbitraries.of(NOT_OURS), Arbitraries.integers().between(0, 1_000),
                Arbitraries.chars().range('a', 'z'), Arbitraries.integers().between(0, 2)).as((text, at, c, how) -> {
                    int i = at % text.length();
                    return switch (how) {
                        case 0 -> Character.isLetter(text.charAt(i)) ? text.substring(0, i) + c + text.substring(i + 1)
                                : text;
                        case 1 -> text + text;
                        default -> text.substring(text.indexOf('\n') + 1).isEmpty() ? text
                                : text.substring(text.indexOf('\n') + 1);
                    };
                });
    }

    /** The seed with up to three edits: a hostile piece spliced in, a span removed, or a span doubled. */
    private static Arbitrary<String> mutated(String seed, List<String> pieces) {
        Arbitrary<Tuple.Tuple3<Integer, Integer, String>> edit = Combinators.combine(
                Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, seed.length()),
                Arbitraries.of(pieces)).as(Tuple::of);
        return edit.list().ofMinSize(1).ofMaxSize(3).map(edits -> {
            String text = seed;
            for (Tuple.Tuple3<Integer, Integer, String> e : edits) {
                int at = Math.min(e.get2(), text.length());
                int end = Math.min(text.length(), at + 1 + e.get2() % 40);
                text = switch (e.get1()) {
                    case 0 -> text.substring(0, at) + e.get3() + text.substring(at);
                    case 1 -> text.substring(0, at) + text.substring(end);
                    default -> text.substring(0, end) + text.substring(at, end) + text.substring(end);
                };
            }
            return text;
        });
    }
}
