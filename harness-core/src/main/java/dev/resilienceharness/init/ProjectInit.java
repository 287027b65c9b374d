package dev.resilienceharness.init;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.run.RunError;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Prepares a team's project for the harness ({@code mvn resilience:init}): finds the SDK among its dependencies and
 * writes a {@code resilience.yaml}, a loop for that SDK and the one-line test class surefire needs, never
 * overwriting a file. It returns the lines to show, the XML the pom lacks and the next steps among them.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ProjectInit {

    /** The loop class init writes for an SDK, in {@code src/test/java}. */
    public static final String LOOP_CLASS = "resilience.ResilienceLoop";
    static final String YAML = "resilience.yaml";
    static final String LOOP_FILE = "src/test/java/resilience/ResilienceLoop.java";
    static final String TEST_FILE = "src/test/java/ResilienceScenariosTest.java";
    static final String GROUP_ID = "dev.resilienceharness";
    /** Where the built-in loop, and a loop on an SDK that speaks OpenAI's API, records from by default. */
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
    /** The key's variable for the built-in loop's variant; an SDK's loop names its provider's ({@link Sdk#keyEnv}). */
    static final String KEY_ENV = "OPENAI_API_KEY";

    private final Path basedir;
    private final String version;

    /** Init for the project in {@code basedir}, naming the harness's {@code version} in the XML it prints. */
    public ProjectInit(Path basedir, String version) {
        this.basedir = basedir;
        this.version = version;
    }

    /**
     * Writes the files the project lacks and returns the lines to show.
     *
     * @param dependencies the project's declared dependencies, {@code groupId:artifactId} each
     * @param pluginDeclared whether the pom already declares {@code harness-maven-plugin}
     * @param baseUrl the provider's base URL to write in the yaml, or {@code null} for the SDK's provider
     *     ({@link #DEFAULT_BASE_URL} for the built-in loop and the SDKs that speak OpenAI's API)
     */
    public List<String> init(Collection<String> dependencies, boolean pluginDeclared, String baseUrl)
            throws RunError {
        List<String> lines = new ArrayList<>();
        Sdk sdk = choose(Sdk.detect(dependencies), lines);
        boolean ownLoop = sdk != null;
        String keyEnv = ownLoop ? sdk.keyEnv() : KEY_ENV;
        String yaml = template(ownLoop ? sdk.yamlTemplate() : "builtin.yaml.template")
                .replace("{{SDK}}", ownLoop ? sdk.title() : "the built-in loop")
                .replace("{{LOOP}}", LOOP_CLASS)
                .replace("{{BASE_URL}}", baseUrl != null && !baseUrl.isBlank() ? baseUrl
                        : ownLoop ? sdk.baseUrl() : DEFAULT_BASE_URL)
                .replace("{{KEY_ENV}}", keyEnv);
        write(YAML, yaml, lines);
        if (ownLoop) {
            write(LOOP_FILE, template(sdk.loopTemplate()), lines);
        }
        write(TEST_FILE, template("ResilienceScenariosTest.java.template"), lines);

        List<String> missing = new ArrayList<>();
        if (!dependencies.contains(GROUP_ID + ":harness-core")) {
            missing.add("harness-core");
        }
        if (ownLoop && !dependencies.contains(GROUP_ID + ":" + sdk.adapter())) {
            missing.add(sdk.adapter());
        }
        if (!missing.isEmpty()) {
            lines.add("Add to the pom's <dependencies>:");
            for (String artifactId : missing) {
                lines.add("  <dependency><groupId>" + GROUP_ID + "</groupId><artifactId>" + artifactId
                        + "</artifactId><version>" + version + "</version><scope>test</scope></dependency>");
            }
        }
        if (ownLoop && sdk == Sdk.SPRING_AI) {
            // Spring AI 2.0.1 brings older Jackson 3 jars; nearest-wins would put them under the harness.
            lines.add("Spring AI and the harness must run on one Jackson 3; import the harness's in the pom's"
                    + " <dependencyManagement><dependencies>:");
            lines.add("  <dependency><groupId>tools.jackson</groupId><artifactId>jackson-bom</artifactId><version>"
                    + tools.jackson.databind.cfg.PackageVersion.VERSION + "</version><type>pom</type>"
                    + "<scope>import</scope></dependency>");
        }
        if (!pluginDeclared) {
            lines.add("Add to the pom's <build><plugins>, so that mvn verify runs the check:");
            lines.add("  <plugin><groupId>" + GROUP_ID + "</groupId><artifactId>harness-maven-plugin</artifactId>"
                    + "<version>" + version + "</version><executions><execution><goals><goal>check</goal></goals>"
                    + "</execution></executions></plugin>");
        }
        lines.add("Next steps:");
        if (ownLoop) {
            lines.add("  1. In " + LOOP_FILE + ", change the line marked CHANGE THIS LINE to call your agent.");
            lines.add("  2. Record once, with the provider's key in " + keyEnv
                    + ": mvn test-compile resilience:record");
        } else {
            lines.add("  1. In " + YAML + ", put your agent's own requests under requests:.");
            lines.add("  2. Record once, with the provider's key in " + KEY_ENV + ": mvn resilience:record");
        }
        lines.add("  3. Then: mvn verify (offline, from the cassettes)");
        return lines;
    }

    private static Sdk choose(List<Sdk> found, List<String> lines) {
        if (found.isEmpty()) {
            lines.add("No SDK with a harness adapter among the dependencies (openai-java, anthropic-java, Spring AI,"
                    + " langchain4j): writing the built-in loop's variant");
            return null;
        }
        Sdk sdk = found.get(0);
        if (found.size() > 1) {
            lines.add("Found " + found.stream().map(Sdk::title).toList() + " among the dependencies: writing for "
                    + sdk.title());
        } else {
            lines.add("Found " + sdk.title() + " among the dependencies");
        }
        return sdk;
    }

    private void write(String relative, String text, List<String> lines) throws RunError {
        Path file = basedir.resolve(relative);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            lines.add("Wrote " + relative);
        } catch (FileAlreadyExistsException e) {
            lines.add("Kept " + relative + ": it exists, and init never overwrites a file");
        } catch (IOException e) {
            throw new RunError("resilience:init could not write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String template(String name) {
        try (InputStream in = ProjectInit.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("init's template " + name + " is missing from harness-core");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
