package dev.resilienceharness.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.tool.ToolDeclaration;
import dev.resilienceharness.tool.ToolFault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code tools:} and {@code tool_faults:} read strictly, each error naming the file, line and key. */
class ToolEntriesTest {

    private static final Path FILE = Path.of("conf", "resilience.yaml");
    private static final String F = FILE.toString();

    private static final String HEAD = """
            version: 1
            loop: com.acme.Agent
            policy: {max_total_wait: 5m}
            tools:
              refund: {side_effects: true, idempotency_key: /refund_id, timeout: 2s,
                       output_schema: {type: object, required: [id]}}
              lookup: {}
              notes:
            """;

    static HarnessConfig load(String yaml) throws ConfigException {
        return ConfigLoader.load(FILE, yaml.getBytes(UTF_8));
    }

    static String error(String yaml) {
        return assertThrows(ConfigException.class, () -> load(yaml)).getMessage();
    }

    private static String scenario(String toolFaults) {
        return HEAD + "scenarios:\n  - name: s\n    ops: [resolve]\n    tool_faults: " + toolFaults + "\n";
    }

    @Test
    void declarationsAndFaultsAreRead() throws ConfigException {
        HarnessConfig c = load(scenario("{refund: [timeout_after_commit, {slow: 1.5s}, invalid_result, none],"
                + " lookup: [error, timeout]}"));
        ToolDeclaration refund = c.tools().get("refund");
        assertTrue(refund.sideEffects());
        assertEquals(ToolDeclaration.Replay.LIVE, refund.replay());
        assertEquals("/refund_id", refund.idempotencyKey());
        assertEquals(Duration.ofSeconds(2), refund.timeout());
        assertEquals(5, refund.line());
        assertEquals("r-1", refund.keyOf(Json.readTree("{\"refund_id\": \"r-1\"}"), null));
        assertNull(refund.keyOf(Json.readTree("{}"), "ignored"));
        ToolDeclaration lookup = c.tools().get("lookup");
        assertFalse(lookup.sideEffects());
        assertEquals(ToolDeclaration.DEFAULT_TIMEOUT, lookup.timeout());
        assertFalse(c.tools().get("notes").sideEffects());
        assertEquals(List.of("refund", "lookup", "notes"), List.copyOf(c.tools().keySet()));
        assertEquals(ToolDeclaration.undeclared("other"), c.tool("other"));
        assertEquals(List.of(ToolFault.of(ToolFault.Kind.TIMEOUT_AFTER_COMMIT), ToolFault.slow(Duration.ofMillis(1500)),
                ToolFault.of(ToolFault.Kind.INVALID_RESULT), ToolFault.NONE), c.scenarios().get(0).toolFaults("refund"));
        assertEquals(List.of(ToolFault.of(ToolFault.Kind.ERROR), ToolFault.of(ToolFault.Kind.TIMEOUT)),
                c.scenarios().get(0).toolFaults("lookup"));
        assertEquals(List.of(), c.scenarios().get(0).toolFaults("notes"));
    }

    @Test
    void toolBudgetKeysAreRead() throws ConfigException {
        Budget b = load(HEAD + "budget: {max_tool_calls_per_op: 8, max_identical_tool_calls: 2}\n").budget();
        assertEquals(8, b.maxToolCallsPerOp());
        assertEquals(2, b.maxIdenticalToolCalls());
        assertEquals(F + ":9:62: budget.max_identical_tool_calls: expected an integer of at least 1, got"
                + " 0", error(HEAD + "budget: {max_tool_calls_per_op: 8, max_identical_tool_calls: 0}\n"));
    }

    @Test
    void aFaultOnAToolNotDeclaredNamesItAndSuggestsTheNearest() {
        assertEquals(F + ":12:19: scenarios[0].tool_faults.refnd: tool 'refnd' is not declared in tools; did you"
                + " mean 'refund'? The declared tools are: refund, lookup, notes",
                error(scenario("{refnd: [error]}")));
    }

    @Test
    void anUnknownFaultKindIsAnErrorWithTheKinds() {
        assertEquals(F + ":12:28: scenarios[0].tool_faults.refund[0]: unknown tool fault 'timeout_after_comit'; did"
                + " you mean 'timeout_after_commit'? The tool fault kinds are: none, error, timeout, slow,"
                + " invalid_result, timeout_after_commit",
                error(scenario("{refund: [timeout_after_comit]}")));
    }

    @Test
    void invalidResultNeedsAnOutputSchemaThatSomeResultBreaks() {
        assertEquals(F + ":12:28: scenarios[0].tool_faults.lookup[0]: tool 'lookup' declares no output_schema, so no"
                + " result can break it; add output_schema: under tools.lookup, or use another tool fault",
                error(scenario("{lookup: [invalid_result]}")));
        String anything = HEAD.replace("lookup: {}", "lookup: {output_schema: {}}");
        assertEquals(F + ":12:28: scenarios[0].tool_faults.lookup[0]: the output_schema of tool 'lookup' accepts every"
                + " JSON value, so no result can break it; give it a type or required properties, or use another"
                + " tool fault", error(anything + "scenarios:\n  - name: s\n    ops: [resolve]\n    tool_faults:"
                        + " {lookup: [invalid_result]}\n"));
    }

    @Test
    void slowNeedsItsDelayAndOtherKindsTakeNone() {
        assertEquals(F + ":12:28: scenarios[0].tool_faults.refund[0]: the fault slow needs settings: write {slow: 5s}",
                error(scenario("{refund: [slow]}")));
        assertEquals(F + ":12:29: scenarios[0].tool_faults.refund[0].error: the fault error takes no settings; write it"
                + " bare: error", error(scenario("{refund: [{error: 1s}]}")));
        assertTrue(error(scenario("{refund: [{slow: soon}]}")).startsWith(F
                + ":12:35: scenarios[0].tool_faults.refund[0].slow: "), error(scenario("{refund: [{slow: soon}]}")));
    }

    @Test
    void badDeclarationsNameTheirKey() {
        assertEquals(F + ":5:26: tools.refund.side_effects: expected true or false, got the text 'yes please'",
                error(HEAD.replace("side_effects: true", "side_effects: yes please")));
        assertEquals(F + ":5:49: tools.refund.idempotency_key: expected where the tool's idempotency key is: a JSON"
                + " pointer into its arguments such as /refund_id, or passed for the key the loop passes to run.tool,"
                + " got the text 'refund_id'", error(HEAD.replace("/refund_id", "refund_id")));
        assertEquals(F + ":5:20: tools.refund.replay: expected one of live, recorded, got the text 'record'; did you"
                + " mean 'recorded'?", error(HEAD.replace("refund: {", "refund: {replay: record, ")));
        String badSchema = error(HEAD.replace("type: object, required: [id]", "type: 12"));
        assertTrue(badSchema.startsWith(F + ":6:27: tools.refund.output_schema: the output schema is not a valid JSON"
                + " Schema"), badSchema);
        assertTrue(error(HEAD.replace("lookup: {}", "lookup: {sideeffects: true}"))
                .contains("tools.lookup.sideeffects: unknown key 'sideeffects'; did you mean 'side_effects'?"),
                error(HEAD.replace("lookup: {}", "lookup: {sideeffects: true}")));
    }
}
