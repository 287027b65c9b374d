package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.tool.ToolFault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolFaultShrinkerTest {

    static final ToolFault NONE = ToolFault.NONE;
    static final ToolFault ERROR = ToolFault.of(ToolFault.Kind.ERROR);
    static final ToolFault TIMEOUT = ToolFault.of(ToolFault.Kind.TIMEOUT);
    static final ToolFault COMMIT = ToolFault.of(ToolFault.Kind.TIMEOUT_AFTER_COMMIT);
    static final List<ToolFault> VOCABULARY = List.of(ERROR, TIMEOUT, ToolFault.slow(Duration.ofSeconds(5)), COMMIT);

    @Test
    void other_tools_and_faults_go_and_the_one_that_matters_moves_to_the_first_execution() {
        // Fails whenever refund meets a timeout_after_commit at any execution.
        ToolFaultShrinker shrinker = new ToolFaultShrinker(t -> t.getOrDefault("refund", List.of()).contains(COMMIT),
                Map.of("refund", VOCABULARY, "lookup", VOCABULARY));
        assertEquals(Map.of("refund", List.of(COMMIT)), shrinker.shrink(Map.of("refund", List.of(ERROR, NONE, COMMIT,
                NONE), "lookup", List.of(TIMEOUT))));
    }

    @Test
    void a_fault_becomes_the_simplest_of_its_tool_that_still_fails() {
        // Fails on anything that keeps the caller waiting: timeout, slow or timeout_after_commit.
        ToolFaultShrinker shrinker = new ToolFaultShrinker(t -> t.getOrDefault("refund", List.of()).stream()
                .anyMatch(f -> f.kind() != ToolFault.Kind.ERROR && f.kind() != ToolFault.Kind.NONE),
                Map.of("refund", VOCABULARY));
        assertEquals(Map.of("refund", List.of(TIMEOUT)), shrinker.shrink(Map.of("refund", List.of(NONE, COMMIT))));
    }

    @Test
    void trailing_nones_and_empty_lists_change_nothing_and_are_dropped() {
        assertEquals(Map.of("refund", List.of(NONE, ERROR)), ToolFaultShrinker.trimmed(Map.of("refund",
                List.of(NONE, ERROR, NONE), "lookup", List.of(NONE))));
    }

    @Test
    void mcp_faults_shrink_within_an_mcp_tools_vocabulary_and_are_kept() {
        ToolFault expired = ToolFault.of(ToolFault.Kind.SESSION_EXPIRED);
        ToolFault exit = ToolFault.of(ToolFault.Kind.SERVER_EXIT);
        List<ToolFault> mcp = List.of(ERROR, ToolFault.protocolError(-32603), TIMEOUT, expired, exit, COMMIT);
        // Fails whenever the session is lost after the call ran: session_expired or server_exit.
        ToolFaultShrinker shrinker = new ToolFaultShrinker(t -> t.getOrDefault("refund", List.of()).stream()
                .anyMatch(f -> f.equals(expired) || f.equals(exit)), Map.of("refund", mcp));
        assertEquals(Map.of("refund", List.of(expired)), shrinker.shrink(Map.of("refund", List.of(
                ToolFault.protocolError(-32602), exit))));
    }
}
