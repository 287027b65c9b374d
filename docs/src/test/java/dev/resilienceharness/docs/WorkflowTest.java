package dev.resilienceharness.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The GitHub Actions workflow's structure, checked here because no workflow linter installs from Maven Central or
 * Debian's packages (the workflow runs actionlint itself): its triggers, the JDK matrix, that every step runs or
 * uses something pinned, that every matrix expression names a key of the matrix, and that it runs the README's
 * test command, the release profile's verify and the reproducibility check.
 */
class WorkflowTest {

    private static final Path WORKFLOW = Sample.ROOT.resolve(".github/workflows/ci.yml");
    private static final Pattern MATRIX_REF = Pattern.compile("\\$\\{\\{\\s*matrix\\.([A-Za-z0-9_-]+)\\s*}}");

    private final JsonNode ci = new YAMLMapper().readTree(Files.readString(WORKFLOW));

    WorkflowTest() throws Exception {
    }

    @Test
    void runs_on_pushes_to_main_and_on_pull_requests() {
        assertTrue(ci.path("on").has("pull_request"), ci.toString());
        assertEquals("main", ci.path("on").path("push").path("branches").path(0).asString());
        assertEquals("read", ci.path("permissions").path("contents").asString());
    }

    @Test
    void builds_on_jdk_17_and_21() {
        JsonNode build = ci.path("jobs").path("build");
        List<String> javas = new ArrayList<>();
        build.path("strategy").path("matrix").path("java").forEach(v -> javas.add(v.asString()));
        assertEquals(List.of("17", "21"), javas);
        assertEquals("ubuntu-latest", build.path("runs-on").asString());
        JsonNode setup = step(build, "actions/setup-java@v4");
        assertEquals("${{ matrix.java }}", setup.path("with").path("java-version").asString());
    }

    @Test
    void runs_the_readme_test_command_the_release_verify_and_the_reproducibility_check() throws Exception {
        List<String> runs = new ArrayList<>();
        ci.path("jobs").path("build").path("steps").forEach(s -> runs.add(s.path("run").asString("")));
        assertTrue(Files.readString(Sample.ROOT.resolve("README.md")).contains("./mvnw -B verify "));
        assertTrue(runs.contains("./mvnw -B verify"), runs.toString());
        assertTrue(runs.contains("./mvnw -B -Prelease -Dgpg.skip -DskipTests -Dinvoker.skip verify"), runs.toString());
        assertTrue(runs.contains(".ci/reproducible"), runs.toString());
        assertTrue(Files.isExecutable(Sample.ROOT.resolve(".ci/reproducible")));
    }

    @Test
    void lints_the_workflows_with_actionlint() {
        JsonNode lint = ci.path("jobs").path("lint");
        assertTrue(step(lint, "docker://rhysd/actionlint:1.7.7").isObject());
    }

    @Test
    void every_job_has_a_runner_and_every_step_runs_or_uses_a_pinned_action() {
        assertFalse(ci.path("jobs").isEmpty());
        for (var job : ci.path("jobs").properties()) {
            assertFalse(job.getValue().path("runs-on").asString("").isEmpty(), job.getKey());
            assertFalse(job.getValue().path("steps").isEmpty(), job.getKey());
            for (JsonNode s : job.getValue().path("steps")) {
                boolean runs = s.has("run");
                boolean uses = s.has("uses");
                assertTrue(runs != uses, job.getKey() + ": a step either runs or uses: " + s);
                assertTrue(!uses || s.path("uses").asString().matches("[\\w./-]+@[\\w.-]+|docker://[\\w./-]+:[\\w.-]+"),
                        job.getKey() + ": an action pinned to a version: " + s);
                assertTrue(Set.of("run", "uses", "name", "with").containsAll(fieldNames(s)), s.toString());
            }
        }
    }

    @Test
    void every_matrix_expression_names_a_key_of_its_matrix() throws Exception {
        Set<String> keys = Set.copyOf(fieldNames(ci.path("jobs").path("build").path("strategy").path("matrix")));
        Matcher m = MATRIX_REF.matcher(Files.readString(WORKFLOW));
        int refs = 0;
        while (m.find()) {
            assertTrue(keys.contains(m.group(1)), "matrix." + m.group(1) + " is not a key of " + keys);
            refs++;
        }
        assertEquals(2, refs);
    }

    private static JsonNode step(JsonNode job, String uses) {
        for (JsonNode s : job.path("steps")) {
            if (uses.equals(s.path("uses").asString(""))) {
                return s;
            }
        }
        throw new AssertionError("no step uses " + uses + ": " + job);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.properties().forEach(e -> names.add(e.getKey()));
        return names;
    }
}
