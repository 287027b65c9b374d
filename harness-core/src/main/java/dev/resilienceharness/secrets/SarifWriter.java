package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes findings as SARIF 2.1.0 ({@code secrets.sarif}), the format code scanning tools such as GitHub's
 * upload: one run of the tool {@code resilience-harness} with every {@link Rule}, and one result per finding
 * with its masked value, its location (artifact URI relative to the base folder, with forward slashes; line and
 * column) and its fingerprint under {@code partialFingerprints}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class SarifWriter {

    /** The SARIF 2.1.0 JSON schema. */
    public static final String SCHEMA =
            "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

    /** The tool name in {@code runs[0].tool.driver.name}. */
    public static final String TOOL = "resilience-harness";

    /** The key of the finding fingerprint in each result's {@code partialFingerprints}. */
    public static final String FINGERPRINT_KEY = "secretFingerprint/v1";

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final Path baseDir;

    /** @param baseDir the folder artifact URIs are relative to, usually the project's base directory */
    public SarifWriter(Path baseDir) {
        this.baseDir = Objects.requireNonNull(baseDir, "baseDir").toAbsolutePath().normalize();
    }

    /** The SARIF document for {@code findings}, pretty-printed. */
    public String render(List<Finding> findings) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("$schema", SCHEMA);
        root.put("version", "2.1.0");
        ObjectNode run = root.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", TOOL);
        ArrayNode rules = driver.putArray("rules");
        for (Rule rule : Rule.values()) {
            descriptor(rules, rule.id(), rule.title(), rule.description(), rule.help());
        }
        // a team's own rules follow the built-in ones, each once, in the order their findings come
        Map<String, Integer> teamIndex = new LinkedHashMap<>();
        for (Finding f : findings) {
            if (f.rule() == null && !teamIndex.containsKey(f.ruleId())) {
                teamIndex.put(f.ruleId(), rules.size());
                String description = "A match of the rule '" + f.ruleId() + "' of the project's gitleaks "
                        + "configuration (.gitleaks.toml).";
                descriptor(rules, f.ruleId(), f.title() + " " + f.ruleId(), description,
                        description + " " + Rule.REMEDY);
            }
        }
        run.put("columnKind", "utf16CodeUnits");
        ArrayNode results = run.putArray("results");
        for (Finding f : findings) {
            ObjectNode result = results.addObject();
            result.put("ruleId", f.ruleId());
            result.put("ruleIndex", f.rule() != null ? f.rule().ordinal() : teamIndex.get(f.ruleId()));
            result.put("level", "error");
            result.putObject("message").put("text", message(f));
            ObjectNode physical = result.putArray("locations").addObject().putObject("physicalLocation");
            physical.putObject("artifactLocation").put("uri", uri(f.file()));
            ObjectNode region = physical.putObject("region");
            region.put("startLine", Math.max(1, f.line()));
            region.put("startColumn", Math.max(1, f.column()));
            result.putObject("partialFingerprints").put(FINGERPRINT_KEY, f.fingerprint());
        }
        return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    }

    private static void descriptor(ArrayNode rules, String id, String title, String description, String help) {
        ObjectNode r = rules.addObject();
        r.put("id", id);
        r.put("name", title);
        r.putObject("shortDescription").put("text", title);
        r.putObject("fullDescription").put("text", description);
        r.putObject("help").put("text", help);
        r.putObject("defaultConfiguration").put("level", "error");
        ObjectNode properties = r.putObject("properties");
        properties.putArray("tags").add("security").add("secrets");
        properties.put("security-severity", "8.0");
    }

    /** Writes the SARIF document to {@code target} atomically. */
    public void write(List<Finding> findings, Path target) throws IOException {
        dev.resilienceharness.cassette.AtomicFiles.write(target, render(findings).getBytes(StandardCharsets.UTF_8));
    }

    /** The result message: rule, masked value and JSON path. */
    static String message(Finding f) {
        return f.title() + " (" + f.ruleId() + "): " + f.masked() + " at " + f.jsonPath();
    }

    /**
     * The file's path relative to the base folder, with forward slashes and URI escapes; a file outside the
     * base folder gets an absolute {@code file:} URI.
     */
    String uri(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        if (!absolute.startsWith(baseDir)) {
            return absolute.toUri().toString();
        }
        Path relative = baseDir.relativize(absolute);
        StringBuilder uri = new StringBuilder();
        for (Path part : relative) {
            if (uri.length() > 0) {
                uri.append('/');
            }
            uri.append(escape(part.toString()));
        }
        return uri.toString();
    }

    /** Percent-encodes what may not appear in a URI path segment. */
    private static String escape(String segment) {
        StringBuilder out = new StringBuilder();
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c < 0x80 && (Chars.isAlnum((char) c) || "-._~!$&'()*+,;=:@".indexOf(c) >= 0)) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return out.toString();
    }
}
