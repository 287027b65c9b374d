package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.transport.ToolCallSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class RunOpsTest {

    @TempDir
    Path folder;

    private OpExchange cassette(String op, String answer) throws IOException {
        return RecordedAnswersTest.cassette(folder, op, answer);
    }

    private static ObjectNode request(String json) {
        return (ObjectNode) Json.readTree(json);
    }

    private RecordedAnswers answers(int capacity) {
        return new RecordedAnswers(new CassetteReader(folder, VolatilePaths.of(List.of())), new ToolCallSchema(),
                capacity);
    }

    private static RunOps prepared(List<String> ops, OpExchange... exchanges) {
        Map<String, OpExchange> byOp = new java.util.HashMap<>();
        Map<ObjectNode, OpExchange> byRequest = new java.util.IdentityHashMap<>();
        for (OpExchange e : exchanges) {
            byOp.put(e.op(), e);
            byRequest.put(e.request(), e);
        }
        return RunOps.prepared(ops, op -> byOp.containsKey(op) ? byOp.get(op).request() : null, byRequest::get);
    }

    @Test
    void anOpsPreparedRequestIsFoundByItsNameWhateverStringSpellsIt() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        RunOps ops = prepared(List.of("plan", "patch"), plan);
        assertSame(plan.request(), ops.template("plan"));
        assertSame(plan.request(), ops.template(new String("plan".toCharArray())));
        assertNull(ops.template("patch"), "an op without a prepared request goes to the rehearsal's maps");
        assertNull(ops.template("review"));
    }

    @Test
    void aCallIsKnownByThePreparedRequestItselfAndNotByAnEqualCopy() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        OpExchange patch = cassette("patch", "a patch");
        RunOps ops = prepared(List.of("plan", "patch"), plan, patch);
        assertEquals(1, ops.indexSending(patch.request()));
        assertSame(patch, ops.exchange(1));
        assertEquals(-1, ops.indexSending(request("{\"op\": \"patch\"}")),
                "a copy may have been changed by the loop: it is fingerprinted as before");
    }

    @Test
    void aPreparedRequestThatCarriesARepairIsAlwaysLookedUp() throws IOException {
        Path file = folder.resolve("plan.json");
        Files.writeString(file, "{\"request\": {\"op\": \"plan\", \"repair\": 1}, \"response\": {}}");
        OpExchange plan = new OpExchange("plan", request("{\"op\": \"plan\", \"repair\": 1}"), "fp", file);
        RunOps ops = prepared(List.of("plan"), plan);
        assertEquals(-1, ops.indexSending(plan.request()));
    }

    @Test
    void aCallGoesToTheAnswerItsOpLastTookWhileTheCacheKeepsIt() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        OpExchange patch = cassette("patch", "a patch");
        RecordedAnswers all = answers(Integer.MAX_VALUE);
        RunOps ops = prepared(List.of("plan", "patch"), plan, patch);
        RecordedAnswers.Answer planAnswer = ops.answer(0, all);
        assertEquals("a plan", planAnswer.reply().body().get("answer").asString());
        Files.delete(plan.file());
        assertSame(planAnswer, ops.answer(0, all));
        // Another scenario's ops (or a look-up by file) meet the same answer.
        assertSame(planAnswer, prepared(List.of("plan"), plan).answer(0, all));
        assertSame(planAnswer, all.answer(plan));
    }

    @Test
    void anAnswerTheCacheLetGoIsNotKeptAliveByTheOpsAndIsReadAgain() throws IOException {
        OpExchange review = cassette("review", "a review");
        OpExchange ship = cassette("ship", "a ship");
        RecordedAnswers one = answers(1);
        RunOps ops = prepared(List.of("review", "ship"), review, ship);
        assertEquals("a review", ops.answer(0, one).reply().body().get("answer").asString());
        assertEquals("a ship", ops.answer(1, one).reply().body().get("answer").asString()); // review's answer goes
        Files.writeString(review.file(), "{\"request\": {\"op\": \"review\"}, \"response\": {\"answer\": \"again\"}}");
        assertEquals("again", ops.answer(0, one).reply().body().get("answer").asString());
        ops.answer(1, one); // and again
        Files.delete(review.file());
        assertThrows(RecordedAnswers.Unreadable.class, () -> ops.answer(0, one));
    }

    @Test
    void aHolderLetsGoOfItsAnswerWhenTheCacheDoes() throws IOException {
        OpExchange review = cassette("review", "a review");
        OpExchange ship = cassette("ship", "a ship");
        RecordedAnswers one = answers(1);
        RecordedAnswers.Held[] held = new RecordedAnswers.Held[2];
        one.answer(review, held, 0);
        assertNotNull(held[0].take());
        one.answer(ship, held, 1);
        assertNull(held[0].take(), "the holder of an answer the cache let go must not keep it alive");
        assertNotNull(held[1].take());
    }

    @Test
    void isTheSetOfTheScenariosOpsInTheirOrder() {
        RunOps ops = RunOps.of(List.of("plan", "patch", "plan", "review"));
        assertTrue(ops.contains("patch"));
        assertFalse(ops.contains("ship"));
        assertEquals(List.of("plan", "patch", "review"), List.copyOf(ops));
        assertEquals(3, ops.size());
        assertEquals(-1, ops.indexSending(request("{\"op\": \"plan\"}")));
    }
}
