package dev.resilienceharness.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Every code sample of the documentation is compiled or loaded: a Java class is compiled against the harness, its
 * four adapters and their SDKs; a whole {@code resilience.yaml} is loaded with core's {@link ConfigLoader}; a pom
 * snippet is parsed as XML; JSON is parsed; a command's goals and {@code -Dresilience.*} properties are the plugin's
 * own. A block marked {@code <!-- fragment -->} is checked as a part: the harness's types and methods it calls
 * exist, a yaml part loads as a config once the keys it leaves out are added, other yaml and JSON parse.
 */
class DocSamplesTest {

    /** The top-level keys of a resilience.yaml; a yaml fragment made only of these is a part of one. */
    private static final Set<String> CONFIG_KEYS = Set.of("version", "cassettes", "volatile", "policy", "loop",
            "requests", "requests_from", "scenarios", "budget", "redaction", "provider", "drift", "provider_limits", "secrets", "tools",
            "mcp_servers");
    private static final List<String> PACKAGES = List.of("dev.resilienceharness.loop",
            "dev.resilienceharness.transport", "dev.resilienceharness.tool", "dev.resilienceharness.policy", "dev.resilienceharness.clock",
            "dev.resilienceharness.http", "dev.resilienceharness.config", "dev.resilienceharness.scenario",
            "dev.resilienceharness.cassette", "dev.resilienceharness.clients.openai",
            "dev.resilienceharness.clients.anthropic", "dev.resilienceharness.clients.springai",
            "dev.resilienceharness.clients.langchain4j", "dev.resilienceharness.mcpclient");
    private static final Pattern QUALIFIED_CALL = Pattern.compile("\\b([A-Z]\\w*)\\.([a-zA-Z]\\w*)\\(");
    private static final Pattern HARNESS_CLASS = Pattern.compile("\\bdev\\.resilienceharness(?:\\.[a-z]\\w*)+\\.[A-Z]\\w*");
    private static final Pattern GOAL = Pattern.compile("\\bresilience:([a-z][a-z-]*)");
    private static final Pattern PROPERTY = Pattern.compile("-D(resilience\\.[A-Za-z.]*[A-Za-z])");
    private static final Pattern CLASS_NAME = Pattern.compile("(?m)^(?:public\\s+)?(?:final\\s+)?class\\s+(\\w+)");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+);");

    @TempDir
    Path dir;

    @TestFactory
    Stream<DynamicTest> everySampleCompilesLoadsOrParses() {
        return Sample.all().stream().map(s -> DynamicTest.dynamicTest(s.toString(), () -> check(s)));
    }

    @Test
    void theSamplesAreRead() {
        List<Sample> all = Sample.all();
        Map<String, Long> counts = new java.util.TreeMap<>();
        for (Sample s : all) {
            counts.merge(s.language() + (s.fragment() ? " fragment" : ""), 1L, Long::sum);
        }
        assertTrue(counts.getOrDefault("java", 0L) >= 5, counts.toString());
        assertTrue(counts.getOrDefault("yaml", 0L) >= 4, counts.toString());
        assertTrue(counts.getOrDefault("xml", 0L) >= 6, counts.toString());
        long fragments = all.stream().filter(Sample::fragment).count();
        long code = all.stream().filter(s -> Set.of("java", "yaml", "xml", "json").contains(s.language())).count();
        assertTrue(fragments * 2 < code, "most samples are whole: " + counts);
    }

    private void check(Sample s) throws Exception {
        for (Matcher m = HARNESS_CLASS.matcher(s.text()); m.find(); ) {
            String name = m.group();
            assertTrue(loads(name) != null, s.where() + " names " + name + ", which is no class");
        }
        switch (s.language()) {
            case "java" -> {
                if (s.fragment()) {
                    callsExist(s);
                } else {
                    compile(s);
                }
            }
            case "yaml" -> yaml(s);
            case "xml" -> xml(s);
            case "json" -> json(s);
            case "sh" -> commands(s);
            case "", "text" -> {
                // log output: only the class names above
            }
            default -> fail(s.where() + ": a code block in " + s.language() + ", which no test checks");
        }
    }

    // --- Java ---

    private void compile(Sample s) throws Exception {
        Matcher className = CLASS_NAME.matcher(s.text());
        assertTrue(className.find(), s.where() + ": a Java sample that is a whole class");
        Matcher pkg = PACKAGE.matcher(s.text());
        Path src = dir.resolve("src");
        if (pkg.find()) {
            src = src.resolve(pkg.group(1).replace('.', '/'));
        }
        Files.createDirectories(src);
        Path file = src.resolve(className.group(1) + ".java");
        Files.writeString(file, s.text(), StandardCharsets.UTF_8);
        Path out = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter log = new StringWriter();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            boolean ok = javac.getTask(log, files, diagnostics, List.of("-d", out.toString(), "-cp", classpath(),
                    "--release", "17", "-proc:none", "-Xlint:none"), null, files.getJavaFileObjects(file.toFile()))
                    .call();
            StringBuilder errors = new StringBuilder();
            diagnostics.getDiagnostics().forEach(d -> errors.append('\n').append(d.getKind()).append(" line ")
                    .append(d.getLineNumber()).append(": ").append(d.getMessage(Locale.ROOT)));
            assertTrue(ok, s.where() + " does not compile:" + errors + log);
        }
    }

    private static String classpath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    private static void callsExist(Sample s) {
        int resolved = 0;
        for (Matcher m = QUALIFIED_CALL.matcher(s.text()); m.find(); ) {
            Class<?> owner = harnessType(m.group(1));
            if (owner == null) {
                continue;                         // the team's own code (FixAgent) or a JDK type
            }
            String member = m.group(2);
            boolean exists = Arrays.stream(owner.getMethods()).anyMatch(x -> x.getName().equals(member))
                    || Arrays.stream(owner.getClasses()).anyMatch(c -> c.getSimpleName().equals(member));
            assertTrue(exists, s.where() + " calls " + m.group(1) + "." + member + ", which " + owner.getName()
                    + " does not have");
            resolved++;
        }
        assertTrue(resolved > 0, s.where() + ": a Java fragment that calls nothing of the harness");
    }

    private static Class<?> harnessType(String simpleName) {
        for (String p : PACKAGES) {
            Class<?> c = loads(p + "." + simpleName);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    private static Class<?> loads(String name) {
        try {
            return Class.forName(name, false, DocSamplesTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            int dot = name.lastIndexOf('.');
            return dot < 0 ? null : nested(name.substring(0, dot), name.substring(dot + 1));
        }
    }

    private static Class<?> nested(String outer, String inner) {
        try {
            return Class.forName(outer + "$" + inner, false, DocSamplesTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    // --- YAML ---

    private void yaml(Sample s) throws Exception {
        JsonNode tree = new YAMLMapper().readTree(s.text());
        assertTrue(tree != null && tree.isObject() && !tree.isEmpty(), s.where() + ": a yaml mapping");
        Set<String> keys = new TreeSet<>(tree.propertyNames());
        boolean config = CONFIG_KEYS.containsAll(keys);
        if (!s.fragment()) {
            assertTrue(config && keys.contains("version"), s.where() + ": a whole resilience.yaml (or mark it "
                    + Sample.FRAGMENT + "); its keys: " + keys);
            load(s, s.text());
        } else if (config) {
            StringBuilder whole = new StringBuilder();
            if (!keys.contains("version")) {
                whole.append("version: 1\n");
            }
            whole.append(s.text());
            if (!keys.contains("policy")) {
                whole.append("policy: {max_total_wait: 30s}\n");
            }
            load(s, whole.toString());
        }
    }

    private void load(Sample s, String yaml) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("yaml-" + s.line()));
        Matcher from = Pattern.compile("(?m)^requests_from:\\s*(\\S+)").matcher(yaml);
        if (from.find()) {
            Files.writeString(folder.resolve(from.group(1)), "requests:\n  shared-op: {model: m}\n");
        }
        Matcher rules = Pattern.compile("gitleaks_config:\\s*([^\\s,}#]+)").matcher(yaml);
        if (rules.find()) {
            Path toml = folder.resolve(rules.group(1));
            Files.createDirectories(toml.getParent());
            Files.writeString(toml, "[[rules]]\nid = \"sample\"\nregex = 'sample_[a-z0-9]{24}'\n");
        }
        Path file = folder.resolve("resilience.yaml");
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        try {
            ConfigLoader.load(file);
        } catch (ConfigException e) {
            fail(s.where() + " is not a resilience.yaml ConfigLoader loads: " + e.getMessage());
        }
    }

    // --- XML, JSON ---

    private static void xml(Sample s) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        String wrapped = "<sample>" + s.text() + "</sample>";
        try {
            factory.newDocumentBuilder().parse(new ByteArrayInputStream(wrapped.getBytes(StandardCharsets.UTF_8)));
        } catch (org.xml.sax.SAXException e) {
            fail(s.where() + " is not well-formed XML: " + e.getMessage());
        }
    }

    private static void json(Sample s) {
        if (!s.fragment()) {
            JsonMapper.builder().build().readTree(s.text());
            return;
        }
        // A part, with "..." for what it leaves out: its brackets still pair up outside strings.
        List<Character> open = new ArrayList<>();
        boolean string = false;
        String t = s.text();
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (string) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    string = false;
                }
            } else if (c == '"') {
                string = true;
            } else if (c == '{' || c == '[') {
                open.add(c);
            } else if (c == '}' || c == ']') {
                assertFalse(open.isEmpty(), s.where() + ": '" + c + "' closes nothing");
                assertEquals(c == '}' ? '{' : '[', open.remove(open.size() - 1), s.where() + ": brackets");
            }
        }
        assertTrue(open.isEmpty() && !string, s.where() + ": every bracket and string closes");
    }

    // --- commands ---

    private static void commands(Sample s) throws Exception {
        Set<String> goals = new HashSet<>();
        Set<String> properties = new HashSet<>();
        String descriptor = Files.readString(Path.of("target", "plugin-enhanced.xml"), StandardCharsets.UTF_8);
        for (Matcher m = Pattern.compile("<goal>([a-z-]+)</goal>").matcher(descriptor); m.find(); ) {
            goals.add(m.group(1));
        }
        for (Matcher m = Pattern.compile("\\$\\{(resilience\\.[A-Za-z.]+)}").matcher(descriptor); m.find(); ) {
            properties.add(m.group(1));
        }
        assertTrue(goals.contains("check") && properties.contains("resilience.config"), "the plugin's descriptor");
        for (Matcher m = GOAL.matcher(s.text()); m.find(); ) {
            assertTrue(goals.contains(m.group(1)), s.where() + ": no goal resilience:" + m.group(1));
        }
        for (Matcher m = PROPERTY.matcher(s.text()); m.find(); ) {
            assertTrue(properties.contains(m.group(1)), s.where() + ": no parameter reads -D" + m.group(1));
        }
    }

    @Test
    void theCompilerSeesTheAdapters() {
        String cp = classpath();
        for (String jar : List.of("harness-core", "harness-openai-java", "harness-anthropic-java", "harness-spring-ai",
                "harness-langchain4j", "openai-java", "anthropic-java", "spring-ai-openai", "langchain4j-open-ai")) {
            assertTrue(Arrays.stream(cp.split(File.pathSeparator)).anyMatch(e -> e.contains(jar)), jar + " in " + cp);
        }
    }
}
