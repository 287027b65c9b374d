package dev.resilienceharness.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectInitTest {

    @TempDir
    Path dir;

    @Test
    void writes_an_openai_java_loop_and_names_the_missing_adapter() throws Exception {
        List<String> lines = new ProjectInit(dir, "1.2.3").init(List.of("com.openai:openai-java"), true, null);

        String yaml = Files.readString(dir.resolve("resilience.yaml"));
        assertTrue(yaml.contains("loop: resilience.ResilienceLoop"), yaml);
        assertTrue(yaml.contains("base_url: https://api.openai.com/v1"), yaml);
        assertTrue(yaml.contains("api_key_env: OPENAI_API_KEY"), yaml);
        for (String scenario : List.of("quota-with-retry-after-is-retried-once", "quota-without-retry-after-stops",
                "timeout-is-retried-with-backoff", "broken-tool-call", "slow-first-token", "runner-restart")) {
            assertTrue(yaml.contains("- name: " + scenario), scenario);
        }
        String loop = Files.readString(dir.resolve("src/test/java/resilience/ResilienceLoop.java"));
        assertTrue(loop.contains("HarnessOpenAi.builder(run).maxRetries(0).build()"), loop);
        assertEquals(1, loop.split("CHANGE THIS LINE", -1).length - 1, "one line to change");
        assertEquals("// Written by mvn resilience:init. Surefire starts the JUnit Platform only when it finds a test"
                + " class; this one", Files.readString(dir.resolve("src/test/java/ResilienceScenariosTest.java"))
                .lines().findFirst().orElseThrow());
        assertEquals(List.of(
                "Found openai-java among the dependencies",
                "Wrote resilience.yaml",
                "Wrote src/test/java/resilience/ResilienceLoop.java",
                "Wrote src/test/java/ResilienceScenariosTest.java",
                "Add to the pom's <dependencies>:",
                "  <dependency><groupId>dev.resilienceharness</groupId><artifactId>harness-core</artifactId>"
                        + "<version>1.2.3</version><scope>test</scope></dependency>",
                "  <dependency><groupId>dev.resilienceharness</groupId><artifactId>harness-openai-java</artifactId>"
                        + "<version>1.2.3</version><scope>test</scope></dependency>",
                "Next steps:",
                "  1. In src/test/java/resilience/ResilienceLoop.java, change the line marked CHANGE THIS LINE to"
                        + " call your agent.",
                "  2. Record once, with the provider's key in OPENAI_API_KEY: mvn test-compile resilience:record",
                "  3. Then: mvn verify (offline, from the cassettes)"), lines);
    }

    @Test
    void writes_a_spring_ai_loop_and_prints_the_plugin_when_the_pom_lacks_it() throws Exception {
        List<String> lines = new ProjectInit(dir, "1.2.3").init(List.of("org.springframework.ai:spring-ai-openai",
                "dev.resilienceharness:harness-core", "dev.resilienceharness:harness-spring-ai"), false,
                "http://127.0.0.1:9/v1");

        String loop = Files.readString(dir.resolve("src/test/java/resilience/ResilienceLoop.java"));
        assertTrue(loop.contains("HarnessSpringAi.builder(run)"), loop);
        assertTrue(Files.readString(dir.resolve("resilience.yaml")).contains("base_url: http://127.0.0.1:9/v1"));
        assertFalse(lines.contains("Add to the pom's <dependencies>:"), lines.toString());
        assertTrue(lines.contains("  <dependency><groupId>tools.jackson</groupId><artifactId>jackson-bom</artifactId>"
                + "<version>" + tools.jackson.databind.cfg.PackageVersion.VERSION + "</version><type>pom</type>"
                + "<scope>import</scope></dependency>"), lines.toString());
        assertTrue(lines.contains("Add to the pom's <build><plugins>, so that mvn verify runs the check:"),
                lines.toString());
        assertTrue(lines.contains("  <plugin><groupId>dev.resilienceharness</groupId><artifactId>harness-maven-plugin"
                + "</artifactId><version>1.2.3</version><executions><execution><goals><goal>check</goal></goals>"
                + "</execution></executions></plugin>"), lines.toString());
    }

    @Test
    void without_an_sdk_writes_the_builtin_loop_variant() throws Exception {
        List<String> lines = new ProjectInit(dir, "1.2.3").init(List.of("org.slf4j:slf4j-api"), true, null);

        String yaml = Files.readString(dir.resolve("resilience.yaml"));
        assertTrue(yaml.contains("loop: builtin"), yaml);
        assertTrue(yaml.contains("requests:"), yaml);
        assertFalse(Files.exists(dir.resolve("src/test/java/resilience")));
        assertTrue(Files.exists(dir.resolve("src/test/java/ResilienceScenariosTest.java")));
        assertEquals("No SDK with a harness adapter among the dependencies (openai-java, anthropic-java, Spring AI,"
                + " langchain4j): writing the built-in loop's variant", lines.get(0));
        assertTrue(lines.contains("  2. Record once, with the provider's key in OPENAI_API_KEY: mvn resilience:record"),
                lines.toString());
    }

    @Test
    void writes_an_anthropic_java_loop_on_anthropics_api_and_key() throws Exception {
        List<String> lines = new ProjectInit(dir, "1.2.3").init(List.of("com.anthropic:anthropic-java",
                "dev.resilienceharness:harness-core"), true, null);

        String yaml = Files.readString(dir.resolve("resilience.yaml"));
        assertTrue(yaml.contains("# Written by mvn resilience:init for anthropic-java:"), yaml);
        assertTrue(yaml.contains("loop: resilience.ResilienceLoop"), yaml);
        assertTrue(yaml.contains("base_url: https://api.anthropic.com/v1"), yaml);
        assertTrue(yaml.contains("api_key_env: ANTHROPIC_API_KEY"), yaml);
        assertTrue(yaml.contains("- name: quota-with-retry-after-is-retried-once"), yaml);
        String loop = Files.readString(dir.resolve("src/test/java/resilience/ResilienceLoop.java"));
        assertTrue(loop.contains("HarnessAnthropic.builder(run).maxRetries(0).build()"), loop);
        assertTrue(loop.contains("client.messages().create(MessageCreateParams.builder()"), loop);
        assertTrue(loop.contains("public static final class SdkDefaults extends ResilienceLoop"), loop);
        assertTrue(loop.contains("return HarnessAnthropic.client(run);"), loop);
        assertEquals(1, loop.split("CHANGE THIS LINE", -1).length - 1, "one line to change");
        assertEquals(List.of(
                "Found anthropic-java among the dependencies",
                "Wrote resilience.yaml",
                "Wrote src/test/java/resilience/ResilienceLoop.java",
                "Wrote src/test/java/ResilienceScenariosTest.java",
                "Add to the pom's <dependencies>:",
                "  <dependency><groupId>dev.resilienceharness</groupId><artifactId>harness-anthropic-java"
                        + "</artifactId><version>1.2.3</version><scope>test</scope></dependency>",
                "Next steps:",
                "  1. In src/test/java/resilience/ResilienceLoop.java, change the line marked CHANGE THIS LINE to"
                        + " call your agent.",
                "  2. Record once, with the provider's key in ANTHROPIC_API_KEY: mvn test-compile resilience:record",
                "  3. Then: mvn verify (offline, from the cassettes)"), lines);
    }

    @Test
    void writes_a_langchain4j_loop_whose_scenarios_state_no_retry_after() throws Exception {
        List<String> lines = new ProjectInit(dir, "1.2.3").init(List.of("dev.langchain4j:langchain4j-open-ai"), true,
                null);

        String yaml = Files.readString(dir.resolve("resilience.yaml"));
        assertTrue(yaml.contains("# Written by mvn resilience:init for langchain4j:"), yaml);
        assertTrue(yaml.contains("loop: resilience.ResilienceLoop"), yaml);
        assertTrue(yaml.contains("base_url: https://api.openai.com/v1"), yaml);
        assertTrue(yaml.contains("api_key_env: OPENAI_API_KEY"), yaml);
        assertFalse(yaml.contains("retry_after: \""), yaml);
        for (String scenario : List.of("server-error-is-retried-with-backoff", "quota-without-retry-after-stops",
                "timeout-is-retried-with-backoff", "broken-tool-call", "slow-first-token", "runner-restart")) {
            assertTrue(yaml.contains("- name: " + scenario), scenario);
        }
        String loop = Files.readString(dir.resolve("src/test/java/resilience/ResilienceLoop.java"));
        assertTrue(loop.contains("HarnessLangChain4j.builder(run).modelName(\"gpt-4o-mini\").maxRetries(0).build()"),
                loop);
        assertTrue(loop.contains("public static final class SdkDefaults extends ResilienceLoop"), loop);
        assertEquals(1, loop.split("CHANGE THIS LINE", -1).length - 1, "one line to change");
        assertTrue(lines.contains("  <dependency><groupId>dev.resilienceharness</groupId><artifactId>"
                + "harness-langchain4j</artifactId><version>1.2.3</version><scope>test</scope></dependency>"),
                lines.toString());
        assertTrue(lines.contains("  2. Record once, with the provider's key in OPENAI_API_KEY: mvn test-compile"
                + " resilience:record"), lines.toString());
        assertFalse(lines.stream().anyMatch(l -> l.contains("no loop template")), lines.toString());
    }

    @Test
    void a_given_base_url_wins_over_the_sdks_provider() throws Exception {
        new ProjectInit(dir, "1.2.3").init(List.of("com.anthropic:anthropic-java"), true, "http://127.0.0.1:9/v1");

        String yaml = Files.readString(dir.resolve("resilience.yaml"));
        assertTrue(yaml.contains("base_url: http://127.0.0.1:9/v1"), yaml);
        assertTrue(yaml.contains("api_key_env: ANTHROPIC_API_KEY"), yaml);
    }

    @Test
    void never_overwrites_a_file() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), "version: 1\n");
        Files.createDirectories(dir.resolve("src/test/java"));
        Files.writeString(dir.resolve("src/test/java/ResilienceScenariosTest.java"), "class Mine {}\n");

        List<String> lines = new ProjectInit(dir, "1.2.3").init(List.of("com.openai:openai-java"), true, null);

        assertEquals("version: 1\n", Files.readString(dir.resolve("resilience.yaml")));
        assertEquals("class Mine {}\n", Files.readString(dir.resolve("src/test/java/ResilienceScenariosTest.java")));
        assertTrue(lines.contains("Kept resilience.yaml: it exists, and init never overwrites a file"),
                lines.toString());
        assertTrue(lines.contains("Kept src/test/java/ResilienceScenariosTest.java: it exists, and init never"
                + " overwrites a file"), lines.toString());
        assertTrue(lines.contains("Wrote src/test/java/resilience/ResilienceLoop.java"), lines.toString());

        List<String> again = new ProjectInit(dir, "1.2.3").init(List.of("com.openai:openai-java"), true, null);
        assertTrue(again.contains("Kept src/test/java/resilience/ResilienceLoop.java: it exists, and init never"
                + " overwrites a file"), again.toString());
    }
}
