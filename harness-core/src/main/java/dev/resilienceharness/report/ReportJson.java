package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code report.json}, exactly as docs reports.md lays it out: the documented keys first and in their order,
 * then the extras other tools may use (violation details, each scenario's {@code timeline}, cassette
 * {@code warnings}, finding {@code json_path} and {@code fingerprint}), and {@code exploration} last, only when
 * fault plans were explored.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ReportJson {

    private ReportJson() {
    }

    /** The report as a JSON tree, keys in report order. */
    public static ObjectNode toJson(RunReport report) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode summary = root.putObject("summary");
        summary.put("scenarios", report.scenarios().size());
        summary.put("violations", report.violationCount());
        ObjectNode byInvariant = summary.putObject("by_invariant");
        for (Map.Entry<Invariant, Integer> e : report.violationsByInvariant().entrySet()) {
            byInvariant.put(e.getKey().id(), e.getValue().intValue());
        }
        ArrayNode scenarios = root.putArray("scenarios");
        for (ScenarioReport s : report.scenarios()) {
            scenarios.add(s.toJson());
        }
        ObjectNode cassettes = root.putObject("cassettes");
        cassettes.put("checked", report.cassettes().checked());
        ArrayNode cassetteViolations = cassettes.putArray("violations");
        report.cassettes().violations().forEach(v -> cassetteViolations.add(ScenarioReport.violationJson(v)));
        ArrayNode warnings = cassettes.putArray("warnings");
        report.cassettes().warnings().forEach(warnings::add);
        ObjectNode secrets = root.putObject("secrets");
        secrets.put("files", report.secrets().files());
        ArrayNode findings = secrets.putArray("findings");
        for (SecretFindingRow f : report.secrets().findings()) {
            findings.addObject()
                    .put("file", f.file())
                    .put("line", f.line())
                    .put("column", f.column())
                    .put("rule", f.rule())
                    .put("masked", f.masked())
                    .put("json_path", f.jsonPath())
                    .put("fingerprint", f.fingerprint());
        }
        if (report.exploration().ran()) {
            ObjectNode exploration = root.putObject("exploration");
            exploration.put("plans_explored", report.exploration().plansExplored());
            ArrayNode counterexamples = exploration.putArray("counterexamples");
            report.exploration().counterexamples().forEach(counterexamples::add);
        }
        return root;
    }

    /** The file's text: two-space indented, non-ASCII escaped, with a final newline. */
    public static String write(RunReport report) {
        return Json.prettyPrint(toJson(report)) + "\n";
    }

    /**
     * Reads a report back from {@link #toJson}; the summary is recomputed, not read.
     *
     * @throws IllegalArgumentException when a required part is missing
     */
    public static RunReport fromJson(JsonNode root) {
        RunReport.Builder b = RunReport.builder();
        for (JsonNode s : required(root, "scenarios")) {
            b.scenario(ScenarioReport.fromJson(s));
        }
        JsonNode cassettes = required(root, "cassettes");
        List<Violation> violations = new ArrayList<>();
        required(cassettes, "violations").forEach(v -> violations.add(ScenarioReport.violationFromJson(v)));
        List<String> warnings = new ArrayList<>();
        if (cassettes.has("warnings")) {
            cassettes.get("warnings").forEach(w -> warnings.add(w.asString()));
        }
        b.cassettes(required(cassettes, "checked").asInt(), violations, warnings);
        JsonNode secrets = required(root, "secrets");
        List<SecretFindingRow> findings = new ArrayList<>();
        for (JsonNode f : required(secrets, "findings")) {
            findings.add(new SecretFindingRow(f.get("file").asString(), f.get("line").asInt(),
                    f.get("column").asInt(), f.path("json_path").asString(""), f.get("rule").asString(),
                    f.get("masked").asString(), f.path("fingerprint").asString("")));
        }
        b.secrets(required(secrets, "files").asInt(), findings);
        JsonNode exploration = root.get("exploration");
        if (exploration != null) {
            List<String> counterexamples = new ArrayList<>();
            exploration.get("counterexamples").forEach(c -> counterexamples.add(c.asString()));
            b.exploration(exploration.get("plans_explored").asInt(), counterexamples);
        }
        return b.build();
    }

    private static JsonNode required(JsonNode node, String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            throw new IllegalArgumentException("report.json has no '" + key + "'");
        }
        return v;
    }
}
