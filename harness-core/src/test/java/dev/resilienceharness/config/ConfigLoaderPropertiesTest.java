package dev.resilienceharness.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * Whatever bytes arrive, {@link ConfigLoader#load(Path, byte[])} either returns a configuration or throws a
 * {@link ConfigException} whose message starts with the file; never another exception, never a hang.
 */
public class ConfigLoaderPropertiesTest {

    private static final Path FILE = Path.of("fuzz", "resilience.yaml");
    private static final String FULL = text("full.yaml");
    private static final String PLAIN = text("plain-corpus.yaml");
    private static final String YAML_CHARACTERS = " \t\n:-[]{},&*!|>'\"#%@`?~.0123456789abexz_\u00e9\u2028\uFEFF\u0000";

    private static String text(String name) {
        try {
            return new String(ConfigLoaderTest.resource(name), UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads, and checks that only a well-formed ConfigException may come out, within a few seconds. */
    private static void loadsOrFailsCleanly(byte[] content) {
        String message = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try {
                ConfigLoader.load(FILE, content);
                return null;
            } catch (ConfigException e) {
                return e.getMessage();
            }
        });
        Statistics.label("outcome").collect(message == null ? "loaded" : "refused");
        if (message != null) {
            assertTrue(message.startsWith(FILE + ":"), message);
            assertFalse(message.contains("internal error"), message);
        }
    }

    @Property(tries = 500)
    void randomBytes(@ForAll @Size(max = 3000) byte[] content) {
        loadsOrFailsCleanly(content);
    }

    @Property(tries = 500)
    void randomTextOfYamlPunctuation(@ForAll("yamlish") String text) {
        loadsOrFailsCleanly(text.getBytes(UTF_8));
    }

    @Property(tries = 1000)
    void mutatedFullExample(@ForAll("mutations") List<Mutation> mutations) {
        loadsOrFailsCleanly(apply(FULL, mutations).getBytes(UTF_8));
    }

    @Property(tries = 300)
    void mutatedCorpus(@ForAll("mutations") List<Mutation> mutations) {
        loadsOrFailsCleanly(apply(PLAIN, mutations).getBytes(UTF_8));
    }

    @Provide
    Arbitrary<String> yamlish() {
        return Arbitraries.strings().withChars(YAML_CHARACTERS.toCharArray()).ofMaxLength(400);
    }

    public enum Kind {
        DELETE_LINE, DUPLICATE_LINE, SWAP_LINES, INDENT_LINE, DEDENT_LINE, FLIP_CHAR, INSERT_CHAR, DELETE_CHAR,
        TRUNCATE
    }

    public record Mutation(Kind kind, int a, int b, char c) {
    }

    @Provide
    public Arbitrary<List<Mutation>> mutations() {
        Arbitrary<Mutation> one = Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.integers().between(0, Integer.MAX_VALUE),
                Arbitraries.integers().between(0, Integer.MAX_VALUE),
                Arbitraries.oneOf(Arbitraries.of(YAML_CHARACTERS.toCharArray()), Arbitraries.chars()))
                .as(Mutation::new);
        return one.list().ofMinSize(1).ofMaxSize(6);
    }

    public static String apply(String text, List<Mutation> mutations) {
        String result = text;
        for (Mutation m : mutations) {
            result = apply(result, m);
        }
        return result;
    }

    private static String apply(String text, Mutation m) {
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        int line = m.a() % lines.size();
        int other = m.b() % lines.size();
        int at = text.isEmpty() ? 0 : m.a() % text.length();
        switch (m.kind()) {
            case DELETE_LINE -> lines.remove(line);
            case DUPLICATE_LINE -> lines.add(line, lines.get(line));
            case SWAP_LINES -> {
                String swapped = lines.get(line);
                lines.set(line, lines.get(other));
                lines.set(other, swapped);
            }
            case INDENT_LINE -> lines.set(line, "  " + lines.get(line));
            case DEDENT_LINE -> lines.set(line, lines.get(line).replaceFirst("^ {1,2}", ""));
            case FLIP_CHAR -> {
                return text.isEmpty() ? text : text.substring(0, at) + m.c() + text.substring(at + 1);
            }
            case INSERT_CHAR -> {
                return text.substring(0, at) + m.c() + text.substring(at);
            }
            case DELETE_CHAR -> {
                return text.isEmpty() ? text : text.substring(0, at) + text.substring(at + 1);
            }
            case TRUNCATE -> {
                return text.substring(0, at);
            }
        }
        return String.join("\n", lines);
    }
}
