package dev.resilienceharness.clients.langchain4j;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.scenario.SetupException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * A team's project in a temporary folder: {@code resilience.yaml} declaring the requests langchain4j's
 * {@code OpenAiChatModel} sends for the ops of {@link TeamLoop}, one recorded cassette per op, and the scenarios a
 * test gives.
 */
final class Project {

    /** The tool the {@code patch} and {@code fix} requests offer, as langchain4j writes it. */
    private static final String TOOLS = "[{\"type\": \"function\", \"function\": {\"name\": \"apply_patch\","
            + " \"description\": \"Apply a patch to a file\", \"parameters\": {\"type\": \"object\","
            + " \"properties\": {\"file\": {\"type\": \"string\"}, \"diff\": {\"type\": \"string\"}},"
            + " \"required\": [\"file\", \"diff\"]}}}]";

    /**
     * The body langchain4j 1.19.0 sends for each op (model gpt-4o-mini, its defaults): {@code OpenAiChatModel} for
     * most, {@code OpenAiStreamingChatModel} for {@code draft} and {@code fix}.
     */
    static final String REQUESTS = "requests:\n"
            + "  plan: " + chat("plan the fix", false, null) + "\n"
            + "  review: " + chat("review the patch", false, null) + "\n"
            + "  summary: " + chat("summarise", false, null) + "\n"
            + "  patch: " + chat("patch the bug", false, TOOLS) + "\n"
            + "  draft: " + chat("draft the fix", true, null) + "\n"
            + "  fix: " + chat("fix the bug", true, TOOLS) + "\n";

    private static String chat(String prompt, boolean stream, String tools) {
        return "{\"model\": \"gpt-4o-mini\", \"messages\": [{\"role\": \"user\", \"content\": \"" + prompt + "\"}],"
                + (stream ? " \"stream\": true, \"stream_options\": {\"include_usage\": true}"
                        : " \"stream\": false")
                + (tools == null ? "" : ", \"tools\": " + tools) + "}";
    }

    private static final String PLAN = """
            {"id": "chatcmpl-plan", "object": "chat.completion", "created": 1767225600,
             "model": "gpt-4o-mini-2024-07-18",
             "choices": [{"index": 0, "message": {"role": "assistant", "content": "1. reproduce 2. fix 3. test"},
                          "finish_reason": "stop"}],
             "usage": {"prompt_tokens": 11, "completion_tokens": 9, "total_tokens": 20}}
            """;

    private static final String REVIEW = """
            {"id": "chatcmpl-review", "object": "chat.completion", "created": 1767225601,
             "model": "gpt-4o-mini-2024-07-18",
             "choices": [{"index": 0, "message": {"role": "assistant", "content": "looks good"},
                          "finish_reason": "stop"}],
             "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}}
            """;

    private static final String PATCH = """
            {"id": "chatcmpl-patch", "object": "chat.completion", "created": 1767225602,
             "model": "gpt-4o-mini-2024-07-18",
             "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
               "tool_calls": [{"id": "call_1", "type": "function",
                 "function": {"name": "apply_patch",
                              "arguments": "{\\"file\\":\\"App.java\\",\\"diff\\":\\"-a\\\\n+b\\"}"}}]},
               "finish_reason": "tool_calls"}],
             "usage": {"prompt_tokens": 40, "completion_tokens": 20, "total_tokens": 60}}
            """;

    /** A 200 that is JSON but no chat completion langchain4j can decode. */
    private static final String SUMMARY = """
            {"object": "chat.completion", "choices": {"index": 0}, "created": "yesterday"}
            """;

    final Path dir;
    final HarnessConfig config;

    /**
     * @param policy    the yaml's top-level policy, a flow mapping
     * @param scenarios the yaml's {@code scenarios:} entries, indented as list items
     */
    Project(Path dir, String policy, String scenarios) throws Exception {
        this.dir = dir;
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, "version: 1\n"
                + "policy: " + policy + "\n"
                + "loop: " + TeamLoop.class.getName() + "\n"
                + REQUESTS
                + "scenarios:\n" + scenarios);
        this.config = ConfigLoader.load(yaml);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        record("plan", PLAN, store);
        record("review", REVIEW, store);
        record("patch", PATCH, store);
        record("summary", SUMMARY, store);
        record("draft", PLAN, store);
        record("fix", PATCH, store);
    }

    private void record(String op, String response, CassetteStore store) throws Exception {
        ObjectNode request = config.request(op);
        store.write(request, Json.readTree(response), null, op);
    }

    /** Prepares the rehearsal with {@code loops} making the team's loop. */
    Rehearsal rehearsal(Supplier<AgentLoop> loops) throws SetupException {
        return Rehearsal.prepare(config, loops::get);
    }

    Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /** Runs {@code name} once and checks the run's invariants (determinism needs two runs: not here). */
    ScenarioResult check(Rehearsal rehearsal, String name) {
        return rehearsal.check(scenario(name), 1, java.util.EnumSet.of(Invariant.BUDGET, Invariant.PARTIAL_WORK,
                Invariant.BOUNDED_WAIT, Invariant.EXPECTATIONS));
    }

    static List<String> lines(ScenarioResult result) {
        return result.violations().stream().map(v -> v.line()).toList();
    }
}
