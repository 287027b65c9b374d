package dev.resilienceharness.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every row of the loop API table (docs/src/site/markdown/your-own-loop.md) names a method that exists, with the
 * parameter and return types given.
 */
class LoopApiPageTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([A-Z]\\w*)\\.(\\w+)\\(([^)]*)\\)` \\| `([^`]+)` \\|");
    private static final List<String> PACKAGES = List.of("dev.resilienceharness.loop", "dev.resilienceharness.transport",
            "dev.resilienceharness.policy", "dev.resilienceharness.clock", "dev.resilienceharness.http",
            "dev.resilienceharness.tool");
    private static final Path PAGE = Path.of("..", "docs", "src", "site", "markdown", "your-own-loop.md");

    private static List<String> section() throws Exception {
        List<String> lines = Files.readAllLines(PAGE, StandardCharsets.UTF_8);
        int start = lines.indexOf("## The loop API");
        assertTrue(start >= 0, PAGE + " has a loop API section");
        List<String> rows = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            rows.add(lines.get(i));
        }
        return rows;
    }

    private static Class<?> type(String simpleName) throws ClassNotFoundException {
        for (String p : PACKAGES) {
            try {
                return Class.forName(p + "." + simpleName.replace('.', '$'));
            } catch (ClassNotFoundException e) {
                // next package
            }
        }
        throw new ClassNotFoundException(simpleName);
    }

    /** {@code java.util.List<dev.resilienceharness.loop.Outcome>} as the page writes it: {@code List<Outcome>}. */
    private static String simple(String typeName) {
        return typeName.replaceAll("\\b[a-z][a-z0-9_]*\\.", "").replace('$', '.');
    }

    @Test
    void every_row_matches_a_method_of_the_api() throws Exception {
        int rows = 0;
        for (String line : section()) {
            Matcher m = ROW.matcher(line);
            if (!m.find()) {
                continue;
            }
            rows++;
            Class<?> owner = type(m.group(1));
            List<String> params = m.group(3).isBlank() ? List.of()
                    : Arrays.stream(m.group(3).split(",")).map(String::strip).toList();
            Method found = null;
            for (Method method : owner.getMethods()) {
                List<String> actual = Arrays.stream(method.getGenericParameterTypes())
                        .map(t -> simple(t.getTypeName())).toList();
                if (method.getName().equals(m.group(2)) && actual.equals(params)) {
                    found = method;
                }
            }
            assertTrue(found != null, PAGE + " names " + m.group(1) + "." + m.group(2) + "(" + m.group(3)
                    + "), which does not exist");
            assertEquals(m.group(4), simple(found.getGenericReturnType().getTypeName()), line);
        }
        assertTrue(rows >= 30, "the table was read: " + rows + " rows");
    }

    @Test
    void payloads_are_jackson_3_nodes() throws Exception {
        Method call = type("Transport").getMethod("call", tools.jackson.databind.node.ObjectNode.class);
        assertEquals("tools.jackson.databind.node.ObjectNode", call.getParameterTypes()[0].getName());
        assertTrue(String.join("\n", section()).contains("`tools.jackson.databind`"));
    }

    /**
     * The table calls itself everything a loop uses: every public method of {@code LoopRun}, and every way to make an
     * {@code Outcome}, has its row.
     */
    @Test
    void every_method_a_loop_uses_has_a_row() throws Exception {
        String table = String.join("\n", section());
        List<String> missing = new ArrayList<>();
        for (Method method : type("LoopRun").getDeclaredMethods()) {
            int mods = method.getModifiers();
            if (java.lang.reflect.Modifier.isPublic(mods) && !java.lang.reflect.Modifier.isStatic(mods)
                    && !method.isSynthetic() && !table.contains("`LoopRun." + method.getName() + "(")) {
                missing.add("LoopRun." + method.getName());
            }
        }
        for (Method method : type("Outcome").getDeclaredMethods()) {
            if (java.lang.reflect.Modifier.isPublic(method.getModifiers()) && !method.isSynthetic()
                    && method.getReturnType() == type("Outcome") && !method.getName().equals("fromJson")
                    && !table.contains("`Outcome." + method.getName() + "(")) {
                missing.add("Outcome." + method.getName());
            }
        }
        java.util.Collections.sort(missing);
        assertEquals(List.of(), missing, PAGE + " leaves out methods a loop uses");
    }
}
