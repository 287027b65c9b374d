package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.StreamTrace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.StringNode;

/** A retry after a broken stream, in-stream error events above all, must not repeat the text that had arrived. */
class DuplicatedTextTest {

    private static final String FULL = "Allow a plus sign in the local part.";

    @TempDir
    Path dir;

    @Test
    void aRetryAfterAnInStreamErrorThatEmitsTheTextAgainIsReported() throws Exception {
        RunTrace trace = trace(List.of(errorAfterText(0), done(1)),
                Outcome.ok("plan", StringNode.valueOf("Allow a plus" + FULL), 2));
        List<Violation> found = new DuplicatedText().check(trace);
        assertEquals(1, found.size(), found.toString());
        Violation v = found.get(0);
        assertEquals(Invariant.PARTIAL_WORK, v.invariant());
        assertEquals("plan", v.op());
        assertEquals("at most 1 time", v.bound());
        assertEquals("2 times", v.actual());
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 5 events: \"Allow a plus\" appears 2 times in it", v.message());
    }

    @Test
    void aCarefulLoopThatKeepsTheEmittedTextAndStopsPasses() throws Exception {
        RunTrace kept = trace(List.of(errorAfterText(0)), new Outcome("plan", Status.DEGRADED,
                StringNode.valueOf("Allow a plus"), "timeout", null, 1, null, null).streamed(5, Outcome.KEPT));
        assertEquals(List.of(), new DuplicatedText().check(kept));
        RunTrace dropped = trace(List.of(errorAfterText(0), done(1)),
                Outcome.ok("plan", StringNode.valueOf(FULL), 2).streamed(5, Outcome.DROPPED));
        assertEquals(List.of(), new DuplicatedText().check(dropped), "dropped, then the whole text once");
    }

    @Test
    void anErrorBeforeAnyTextLeavesNothingToRepeat() throws Exception {
        StreamTrace beforeText = new StreamTrace(0, "plan", "stream_error", List.of(1L, 2L, 3L), 3, "error_event", 3L,
                "", FULL);
        RunTrace trace = trace(List.of(beforeText, done(1)), Outcome.ok("plan", StringNode.valueOf(FULL), 2));
        assertEquals(List.of(), new DuplicatedText().check(trace));
    }

    @Test
    void textTheWholeAnswerRepeatsItselfIsAllowedAsOftenAsItDoes() throws Exception {
        String full = "Allow it. Allow it.";
        StreamTrace error = new StreamTrace(0, "plan", "stream_error", List.of(1L, 2L, 3L), 8, "error_event", 3L,
                "Allow it", full);
        RunTrace trace = trace(List.of(error, done(1)), Outcome.ok("plan", StringNode.valueOf(full), 2));
        assertEquals(List.of(), new DuplicatedText().check(trace));
    }

    @Test
    void everyStringOfTheOutcomeCountsAndTheOpIsReportedOnce() throws Exception {
        var value = JsonNodeFactory.instance.objectNode().put("shown", "Allow a plus").put("text", FULL);
        RunTrace trace = trace(List.of(errorAfterText(0), errorAfterText(1), done(2)), Outcome.ok("plan", value, 3));
        List<Violation> found = new DuplicatedText().check(trace);
        assertEquals(1, found.size(), found.toString());
        assertEquals("2 times", found.get(0).actual());
    }

    @Test
    void aStreamThatEndedNormallyIsNotPartial() throws Exception {
        RunTrace trace = trace(List.of(done(0)), Outcome.ok("plan", StringNode.valueOf(FULL + FULL), 1));
        assertEquals(List.of(), new DuplicatedText().check(trace));
    }

    /** A Messages stream ended by an in-stream error after two text deltas: five events, the error the fifth. */
    private static StreamTrace errorAfterText(int call) {
        return new StreamTrace(call, "plan", "stream_error", List.of(1L, 2L, 3L, 4L, 5L), 5, "error_event", 5L,
                "Allow a plus", FULL);
    }

    private static StreamTrace done(int call) {
        return new StreamTrace(call, "plan", "none", List.of(1L, 2L), 2, "done", null, "", FULL);
    }

    private RunTrace trace(List<StreamTrace> streams, Outcome outcome) throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s}
                scenarios:
                  - {name: overloaded, ops: [plan], faults: []}
                """, "plan");
        return new RunTrace(config.scenarios().get(0), List.of(outcome), List.of(), List.of(), Duration.ZERO,
                List.of(), null, List.of(), streams);
    }
}
