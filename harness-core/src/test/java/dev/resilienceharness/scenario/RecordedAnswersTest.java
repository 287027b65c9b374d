package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.ToolCallSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class RecordedAnswersTest {

    private static final String TOOLS = "\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"apply_patch\","
            + " \"parameters\": {\"type\": \"object\", \"required\": [\"path\"],"
            + " \"properties\": {\"path\": {\"type\": \"string\"}}}}}]";

    @TempDir
    Path folder;

    private OpExchange cassette(String op, String answer) throws IOException {
        return cassette(folder, op, answer);
    }

    /** A cassette for {@code op} in {@code folder} answering {@code answer}, first token after 420 ms. */
    static OpExchange cassette(Path folder, String op, String answer) throws IOException {
        Path file = folder.resolve(op + ".json");
        Files.writeString(file, "{\"request\": {\"op\": \"" + op + "\"}, \"response\": {\"answer\": \"" + answer
                + "\"}, \"timing\": {\"first_token_ms\": 420}}");
        return new OpExchange(op, (ObjectNode) Json.readTree("{\"op\": \"" + op + "\"}"), "fp-" + op, file);
    }

    private RecordedAnswers answers(int capacity) {
        return new RecordedAnswers(new CassetteReader(folder, VolatilePaths.of(List.of())), new ToolCallSchema(),
                capacity);
    }

    @Test
    void readsAnAnswerWhenFirstAskedAndKeepsIt() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        RecordedAnswers answers = answers(4);
        RecordedAnswers.Answer first = answers.answer(plan);
        assertEquals("a plan", first.reply().body().get("answer").asString());
        assertEquals(420, first.reply().firstTokenMs().getAsLong());
        assertNull(first.schemaProblem());
        Files.delete(plan.file());
        assertSame(first, answers.answer(plan));
    }

    @Test
    void keepsOnlyTheMostRecentlyUsedAndReadsTheOthersAgain() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        OpExchange patch = cassette("patch", "a patch");
        OpExchange review = cassette("review", "a review");
        RecordedAnswers answers = answers(2);
        RecordedAnswers.Answer planAnswer = answers.answer(plan);
        answers.answer(patch);
        answers.answer(plan);
        answers.answer(review);  // the least recently used, patch, goes
        assertSame(planAnswer, answers.answer(plan));
        Files.writeString(patch.file(), "{\"request\": {\"op\": \"patch\"}, \"response\": {\"answer\": \"again\"}}");
        assertEquals("again", answers.answer(patch).reply().body().get("answer").asString());
    }

    @Test
    void aSweepKeepsEveryAnswerTakenSinceItLastPassedAndLetsTheFirstUntakenGo() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        OpExchange patch = cassette("patch", "a patch");
        OpExchange review = cassette("review", "a review");
        OpExchange ship = cassette("ship", "a ship");
        RecordedAnswers answers = answers(3);
        RecordedAnswers.Answer planAnswer = answers.answer(plan);
        RecordedAnswers.Answer patchAnswer = answers.answer(patch);
        answers.answer(review);
        answers.answer(plan);
        answers.answer(patch);
        answers.answer(ship);  // plan and patch were taken again: review, the one that was not, goes
        assertSame(planAnswer, answers.answer(plan));
        assertSame(patchAnswer, answers.answer(patch));
        Files.writeString(review.file(), "{\"request\": {\"op\": \"review\"}, \"response\": {\"answer\": \"again\"}}");
        assertEquals("again", answers.answer(review).reply().body().get("answer").asString());
    }

    @Test
    void countsTheTokensOfAnAnswerOnce() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        RecordedAnswers.Answer answer = answers(4).answer(plan);
        dev.resilienceharness.limits.Tokens tokens = answer.tokens(plan.request());
        assertEquals(dev.resilienceharness.limits.Tokens.of(plan.request(), answer.reply().body()), tokens);
        assertSame(tokens, answer.tokens(plan.request()));
    }

    @Test
    void takesAnAnswerOfferedWhileTheRehearsalWasPrepared() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        RecordedAnswers answers = answers(4);
        RecordedAnswers.Answer offered = new RecordedAnswers.Answer(
                new Reply(Json.readTree("{\"answer\": \"offered\"}"), OptionalLong.empty()), null);
        answers.offer(plan, offered);
        assertSame(offered, answers.answer(plan));
        assertNotSame(offered, answers(4).answer(plan));
    }

    @Test
    void checksTheRecordedToolCallsAgainstTheRequestsSchema() throws IOException {
        Path file = folder.resolve("patch.json");
        String request = "{\"op\": \"patch\", " + TOOLS + "}";
        Files.writeString(file, "{\"request\": " + request + ", \"response\": {\"choices\": [{\"message\":"
                + " {\"tool_calls\": [{\"function\": {\"name\": \"apply_patch\", \"arguments\": \"{}\"}}]}}]}}");
        OpExchange patch = new OpExchange("patch", (ObjectNode) Json.readTree(request), "fp", file);
        String problem = answers(4).answer(patch).schemaProblem();
        assertTrue(problem.startsWith("choices[0].message.tool_calls[0].function.arguments break the schema of tool"
                + " 'apply_patch'"), problem);
    }

    @Test
    void checksResponsesAndMessagesToolCallsToo() throws IOException {
        Path responses = folder.resolve("responses.json");
        String responsesRequest = "{\"op\": \"patch\", \"tools\": [{\"type\": \"function\", \"name\": \"apply_patch\","
                + " \"parameters\": {\"type\": \"object\", \"required\": [\"path\"]}}]}";
        Files.writeString(responses, "{\"request\": " + responsesRequest + ", \"response\": {\"output\":"
                + " [{\"type\": \"function_call\", \"name\": \"apply_patch\", \"arguments\": \"{}\"}]}}");
        String problem = answers(4).answer(new OpExchange("patch", (ObjectNode) Json.readTree(responsesRequest), "fp1",
                responses)).schemaProblem();
        assertTrue(problem.startsWith("output[0].arguments break the schema of tool 'apply_patch'"), problem);

        Path messages = folder.resolve("messages.json");
        String messagesRequest = "{\"op\": \"review\", \"tools\": [{\"name\": \"apply_patch\", \"input_schema\":"
                + " {\"type\": \"object\", \"required\": [\"path\"]}}]}";
        Files.writeString(messages, "{\"request\": " + messagesRequest + ", \"response\": {\"type\": \"message\","
                + " \"content\": [{\"type\": \"tool_use\", \"name\": \"apply_patch\", \"input\": {}}]}}");
        problem = answers(4).answer(new OpExchange("review", (ObjectNode) Json.readTree(messagesRequest), "fp2",
                messages)).schemaProblem();
        assertTrue(problem.startsWith("content[0].input break the schema of tool 'apply_patch'"), problem);
    }

    @Test
    void aCassetteThatNoLongerReadsIsACassetteProblemNamingTheOp() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        Files.writeString(plan.file(), "{not json");
        RecordedAnswers.Unreadable e = assertThrows(RecordedAnswers.Unreadable.class, () -> answers(4).answer(plan));
        assertTrue(e.getMessage().startsWith("the cassette for op 'plan' changed during the build and cannot be read: "),
                e.getMessage());
    }

    @Test
    void keepsAnswersFromNoMoreThanItsBytesOfCassettes() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        OpExchange patch = cassette("patch", "a patch");
        long one = Files.size(plan.file());
        RecordedAnswers answers = new RecordedAnswers(new CassetteReader(folder, VolatilePaths.of(List.of())),
                new ToolCallSchema(), Integer.MAX_VALUE, one + one / 2, null);
        RecordedAnswers.Answer planAnswer = answers.answer(plan);
        assertSame(planAnswer, answers.answer(plan));
        answers.answer(patch);  // two files do not fit: plan, the least recently used, goes
        Files.writeString(plan.file(), "{\"request\": {\"op\": \"plan\"}, \"response\": {\"answer\": \"again\"}}");
        assertEquals("again", answers.answer(plan).reply().body().get("answer").asString());
    }

    @Test
    void takesAnAnswerAnEarlierPassKeptInsteadOfReadingTheFile() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        KeptAnswers kept = new KeptAnswers(1024);
        Reply reply = new Reply(Json.readTree("{\"answer\": \"kept\"}"), OptionalLong.of(7));
        kept.offer(new dev.resilienceharness.cassette.Cassette(plan.file(), "fp-plan", plan.request(), reply.body(),
                new dev.resilienceharness.cassette.Timing(7L, null)), 100);
        Files.delete(plan.file());
        RecordedAnswers answers = new RecordedAnswers(new CassetteReader(folder, VolatilePaths.of(List.of())),
                new ToolCallSchema(), 4, Long.MAX_VALUE, kept);
        RecordedAnswers.Answer answer = answers.answer(plan);
        assertEquals("kept", answer.reply().body().get("answer").asString());
        assertEquals(7, answer.reply().firstTokenMs().getAsLong());
        assertEquals(0, kept.size());
        assertSame(answer, answers.answer(plan));
    }
}
