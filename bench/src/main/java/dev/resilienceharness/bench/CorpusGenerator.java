package dev.resilienceharness.bench;

import dev.resilienceharness.json.Fingerprint;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes a benchmark project: {@code resilience.yaml} with scenarios of five ops each and mixed faults under a
 * sound policy, one realistic chat-completion cassette of about 3 KB per op in {@code cassettes/}, and a
 * {@code pom.xml} that runs the plugin's {@code check} goal. The same seed always writes the same bytes.
 *
 * <p>Each scenario is one ticket worked through five steps (plan, search, patch, test, review), each step its own
 * distinct request; the patch step declares a tool with a JSON Schema and is answered by a tool call.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.resilienceharness.bench.CorpusGenerator target/corpus
 *     [--scenarios 2000] [--seed 42] [--plugin-version 0.1.0-SNAPSHOT]</pre>
 */
public final class CorpusGenerator {

    /** The steps of a ticket: one op each, so a scenario has five ops. */
    static final List<String> STEPS = List.of("plan", "search", "patch", "test", "review");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] MODELS = {"gpt-4o-mini", "gpt-4o", "gpt-4.1-mini"};
    private static final String[] AREAS = {"billing", "checkout", "search", "inventory", "accounts", "shipping",
        "notifications", "reports", "pricing", "auth"};
    private static final String[] WORDS = ("the a an of to in for with on by from that this it is was be are as at "
            + "test fails when invoice total rounds currency amount line item tax rate discount order customer cart "
            + "request response handler service method class function module import value null empty list map key "
            + "index loop retry timeout error exception stack trace log message field parser schema field config "
            + "default option flag version release branch commit patch diff review change fix bug regression case "
            + "check assert expected actual should must could would because then else after before during while "
            + "first second next last every each other same new old small large fast slow safe simple clear "
            + "update remove add rename move split merge cache queue batch worker thread lock timer clock date "
            + "zone offset parse format round floor ceiling decimal integer string number boolean array object")
            .split(" ");
    private static final String SYSTEM = "You are a careful coding agent. Keep every edit minimal.";

    private final SplittableRandom random;

    private CorpusGenerator(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** What was written. */
    public record Corpus(Path yaml, Path cassettes, int scenarios, int cassetteFiles, long cassetteBytes) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: CorpusGenerator <folder> [--scenarios 2000] [--seed 42]"
                    + " [--plugin-version 0.1.0-SNAPSHOT] [--requests inline|default]");
            System.exit(2);
        }
        Path folder = Path.of(args[0]);
        int scenarios = 2000;
        long seed = 42;
        String pluginVersion = "0.1.0-SNAPSHOT";
        boolean inline = true;
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--scenarios" -> scenarios = Integer.parseInt(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--plugin-version" -> pluginVersion = args[i + 1];
                case "--requests" -> inline = switch (args[i + 1]) {
                    case "inline" -> true;
                    case "default" -> false;
                    default -> throw new IllegalArgumentException("--requests is inline or default, not " + args[i + 1]);
                };
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Corpus c = new CorpusGenerator(seed).write(folder, scenarios, pluginVersion, inline);
        System.out.printf("Wrote %s: %d scenarios, %d cassettes, %.1f MB (%.0f bytes each on average)%n",
                folder, c.scenarios(), c.cassetteFiles(), c.cassetteBytes() / 1e6,
                (double) c.cassetteBytes() / c.cassetteFiles());
    }

    /** Writes the project into {@code folder}: {@code scenarios} scenarios and five times as many cassettes. */
    public static Corpus generate(Path folder, int scenarios, long seed, String pluginVersion) throws IOException {
        return new CorpusGenerator(seed).write(folder, scenarios, pluginVersion, true);
    }

    /**
     * With {@code inline} false the yaml declares no {@code requests:}, so each op sends the default
     * {@code {"op": "<name>"}} and its cassette records that: the yaml is a tenth of the size, which is how a corpus of
     * 100,000 cassettes (20,000 scenarios) stays under the 4 MiB the config reader accepts. The responses are the same.
     */
    private Corpus write(Path folder, int scenarios, String pluginVersion, boolean inline) throws IOException {
        Path cassettes = folder.resolve("cassettes");
        Files.createDirectories(cassettes);
        try (var old = Files.newDirectoryStream(cassettes, "*.json")) {
            for (Path p : old) {
                Files.delete(p);
            }
        }
        StringBuilder requests = new StringBuilder(4 << 20);
        StringBuilder scenarioYaml = new StringBuilder(1 << 20);
        long bytes = 0;
        for (int t = 1; t <= scenarios; t++) {
            String ticket = String.format("t%05d", t);
            String area = AREAS[random.nextInt(AREAS.length)];
            List<String> ops = new ArrayList<>();
            for (String step : STEPS) {
                String op = ticket + "-" + step;
                ops.add(op);
                ObjectNode request = request(ticket, area, step);
                ObjectNode sent = request;
                if (inline) {
                    requests.append("  ").append(op).append(": ");
                    flow(request, requests);
                    requests.append('\n');
                } else {
                    sent = NODES.objectNode().put("op", op);
                }
                ObjectNode cassette = NODES.objectNode();
                cassette.set("request", sent);
                cassette.set("response", response(request, step));
                ObjectNode timing = cassette.putObject("timing");
                int firstToken = 150 + random.nextInt(1200);
                timing.put("first_token_ms", firstToken);
                timing.put("total_ms", firstToken + 400 + random.nextInt(6000));
                byte[] text = Json.prettyPrint(cassette).getBytes(StandardCharsets.UTF_8);
                Files.write(cassettes.resolve(Fingerprint.of(sent) + ".json"), text);
                bytes += text.length;
            }
            scenario(ticket + "-" + area, ops, scenarioYaml);
        }
        Path yaml = folder.resolve("resilience.yaml");
        Files.writeString(yaml, header() + (inline ? "requests:\n" + requests : "") + "scenarios:\n" + scenarioYaml
                + "budget:\n  max_calls_per_scenario: 40\n", StandardCharsets.UTF_8);
        Files.writeString(folder.resolve("pom.xml"), pom(pluginVersion), StandardCharsets.UTF_8);
        return new Corpus(yaml, cassettes, scenarios, scenarios * STEPS.size(), bytes);
    }

    // --- requests and responses ------------------------------------------------------------------------------

    private ObjectNode request(String ticket, String area, String step) {
        ObjectNode r = NODES.objectNode();
        r.put("model", MODELS[random.nextInt(MODELS.length)]);
        ArrayNode messages = r.putArray("messages");
        messages.addObject().put("role", "system").put("content", SYSTEM);
        String task = switch (step) {
            case "plan" -> "Plan a fix for the failing test in " + area + "/" + word() + "_test.py";
            case "search" -> "Find the code in " + area + "/ that handles " + words(3);
            case "patch" -> "Write the patch for " + area + "/" + word() + ".py";
            case "test" -> "Write a regression test for " + area + " covering " + words(3);
            default -> "Review the patch to " + area + "/" + word() + ".py";
        };
        messages.addObject().put("role", "user").put("content", "Ticket " + ticket + ". " + task + ". "
                + sentence(4 + random.nextInt(6)));
        r.put("temperature", 0.2);
        if (step.equals("patch")) {
            r.putArray("tools").add(tool("apply_patch", "Applies a diff",
                    Map.of("path", "string", "diff", "string"), List.of("path", "diff")));
        }
        return r;
    }

    private static ObjectNode tool(String name, String description, Map<String, String> properties,
            List<String> required) {
        ObjectNode tool = NODES.objectNode().put("type", "function");
        ObjectNode function = tool.putObject("function").put("name", name).put("description", description);
        ObjectNode schema = function.putObject("parameters").put("type", "object");
        ArrayNode req = schema.putArray("required");
        required.forEach(req::add);
        ObjectNode props = schema.putObject("properties");
        properties.keySet().stream().sorted().forEach(k -> props.putObject(k).put("type", properties.get(k)));
        schema.put("additionalProperties", false);
        return tool;
    }

    private JsonNode response(ObjectNode request, String step) {
        ObjectNode r = NODES.objectNode();
        r.put("object", "chat.completion");
        r.put("model", request.get("model").asString() + "-2024-07-18");
        ObjectNode choice = r.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        int completion;
        if (request.has("tools")) {
            String tool = request.get("tools").get(0).get("function").get("name").asString();
            ObjectNode args = NODES.objectNode();
            args.put("path", "src/" + word() + ".py");
            args.put("diff", diff());
            message.putNull("content");
            ObjectNode call = message.putArray("tool_calls").addObject();
            call.put("id", "call_" + step + "_" + random.nextInt(1_000_000));
            call.put("type", "function");
            call.putObject("function").put("name", tool).put("arguments", Json.compact(args));
            choice.put("finish_reason", "tool_calls");
            completion = 300 + random.nextInt(400);
        } else {
            message.put("content", paragraphs(1300 + random.nextInt(800)));
            message.putNull("refusal");
            choice.put("finish_reason", "stop");
            completion = 400 + random.nextInt(300);
        }
        choice.putNull("logprobs");
        int prompt = 80 + random.nextInt(200);
        ObjectNode usage = r.putObject("usage");
        usage.put("prompt_tokens", prompt);
        usage.put("completion_tokens", completion);
        usage.put("total_tokens", prompt + completion);
        usage.putObject("prompt_tokens_details").put("cached_tokens", 0).put("audio_tokens", 0);
        usage.putObject("completion_tokens_details").put("reasoning_tokens", 0).put("audio_tokens", 0)
                .put("accepted_prediction_tokens", 0).put("rejected_prediction_tokens", 0);
        r.put("service_tier", "default");
        return r;
    }

    private String diff() {
        StringBuilder d = new StringBuilder("--- a/file.py\n+++ b/file.py\n@@ -10,7 +10,9 @@\n");
        int lines = 30 + random.nextInt(20);
        for (int i = 0; i < lines; i++) {
            char mark = i % 7 == 3 ? '-' : i % 7 == 4 ? '+' : ' ';
            d.append(mark).append("    ").append(words(3 + random.nextInt(6)).replace(' ', '_')).append("()\n");
        }
        return d.toString();
    }

    private String paragraphs(int length) {
        StringBuilder p = new StringBuilder(length + 200);
        p.append("Here is the plan.\n\n");
        int step = 1;
        while (p.length() < length) {
            p.append(step++).append(". ").append(sentence(10 + random.nextInt(16))).append('\n');
        }
        return p.toString();
    }

    private String sentence(int words) {
        String s = words(words);
        return Character.toUpperCase(s.charAt(0)) + s.substring(1) + ".";
    }

    private String words(int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                s.append(' ');
            }
            s.append(word());
        }
        return s.toString();
    }

    private String word() {
        return WORDS[random.nextInt(WORDS.length)];
    }

    // --- scenarios -------------------------------------------------------------------------------------------

    /** Fault entries as written in the yaml, by kind; the quota ones with and without Retry-After. */
    private static final String[] FAULTS = {"none", "timeout", "{server_error: {status: 503}}",
        "{server_error: {status: 502}}", "quota", "{quota: {retry_after: \"2\"}}", "{quota: {retry_after: \"1.5\"}}",
        "{quota: {retry_after: \"Thu, 01 Jan 2026 00:00:05 GMT\"}}", "{quota: {retry_after: \"120\"}}",
        "bad_tool_call", "{slow_first_token: {elapsed_ms: 3500}}", "crash"};

    /** Fault plans written out, the workshop's failure classes one at a time. */
    private static final String[][] PLANS = {
        {},
        {"timeout", "none"},
        {"timeout", "{server_error: {status: 503}}", "none"},
        {"timeout", "timeout", "timeout"},
        {"none", "{quota: {retry_after: \"2\"}}"},
        {"none", "none", "quota"},
        {"none", "{quota: {retry_after: \"120\"}}"},
        {"none", "bad_tool_call"},
        {"none", "none", "bad_tool_call", "bad_tool_call"},
        {"{slow_first_token: {elapsed_ms: 3500}}"},
        {"none", "crash"},
        {"none", "none", "timeout", "crash", "none", "crash"},
    };

    private void scenario(String name, List<String> ops, StringBuilder out) {
        List<String> faults = new ArrayList<>();
        boolean golden = false;
        if (random.nextInt(2) == 0) {
            String[] plan = PLANS[random.nextInt(PLANS.length)];
            faults.addAll(List.of(plan));
            golden = plan.length == 0;
        } else {
            int n = 3 + random.nextInt(6);
            for (int i = 0; i < n; i++) {
                faults.add(FAULTS[random.nextInt(FAULTS.length)]);
            }
            while (!faults.isEmpty() && faults.get(faults.size() - 1).equals("none")) {
                faults.remove(faults.size() - 1);
            }
        }
        out.append("  - name: ").append(name).append('\n');
        out.append("    ops: [").append(String.join(", ", ops)).append("]\n");
        out.append("    faults: [").append(String.join(", ", faults)).append("]\n");
        if (golden) {
            out.append("    expect: {status: [ok, ok, ok, ok, ok], attempts: [1, 1, 1, 1, 1]}\n");
        }
        switch (random.nextInt(20)) {
            case 0 -> out.append("    policy: {max_attempts: 2}\n");
            case 1 -> out.append("    policy: {quota: {with_retry_after: stop}, schema: {repair_attempts: 0}}\n");
            default -> {
            }
        }
    }

    private static String header() {
        return """
                # Generated by dev.resilienceharness.bench.CorpusGenerator: a benchmark corpus, not an example.
                version: 1
                cassettes: cassettes
                volatile:
                  - response.id
                  - response.created
                  - response.system_fingerprint
                policy:
                  max_attempts: 3
                  base_delay: 100ms
                  max_delay: 2s
                  max_total_wait: 30s
                  quota:
                    with_retry_after: retry_once
                    max_retry_after: 60s
                  schema:
                    repair_attempts: 1
                  slow_first_token:
                    threshold: 2s
                  concurrency: 4
                loop: builtin
                """;
    }

    private static String pom(String pluginVersion) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0"
                         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>dev.resilienceharness.bench</groupId>
                  <artifactId>corpus</artifactId>
                  <version>1.0</version>
                  <packaging>pom</packaging>
                  <description>Generated benchmark corpus: mvn verify runs resilience:check on it.</description>
                  <build>
                    <plugins>
                      <plugin>
                        <groupId>dev.resilienceharness</groupId>
                        <artifactId>harness-maven-plugin</artifactId>
                        <version>%s</version>
                        <executions>
                          <execution>
                            <goals>
                              <goal>check</goal>
                            </goals>
                          </execution>
                        </executions>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """.formatted(pluginVersion);
    }

    // --- yaml ------------------------------------------------------------------------------------------------

    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Text YAML reads back as the same string without quotes, in flow style. */
    private static final Pattern PLAIN_TEXT = Pattern.compile("[A-Za-z][A-Za-z0-9_/ .-]*[A-Za-z0-9_/.-]");

    /** A JSON value as YAML flow style (which JSON is, given a space after each colon and comma). */
    private static void flow(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                if (!first) {
                    out.append(", ");
                }
                first = false;
                String key = e.getKey();
                out.append(PLAIN_KEY.matcher(key).matches() ? key : Json.compact(NODES.stringNode(key))).append(": ");
                flow(e.getValue(), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                flow(node.get(i), out);
            }
            out.append(']');
        } else if (node.isString() && PLAIN_TEXT.matcher(node.asString()).matches()
                && !List.of("true", "false", "null").contains(node.asString())) {
            out.append(node.asString());
        } else {
            out.append(Json.compact(node));
        }
    }
}
