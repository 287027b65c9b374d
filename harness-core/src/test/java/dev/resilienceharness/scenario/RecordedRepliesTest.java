package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.transport.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordedRepliesTest {

    @TempDir
    Path folder;

    private OpExchange cassette(String op, String answer) throws IOException {
        Path file = folder.resolve(op + ".json");
        Files.writeString(file, "{\"request\": {\"op\": \"" + op + "\"}, \"response\": {\"answer\": \"" + answer
                + "\"}, \"timing\": {\"first_token_ms\": 420}}");
        return new OpExchange(op, "fp-" + op, file, null);
    }

    private RecordedReplies replies(int capacity) {
        return new RecordedReplies(new CassetteReader(folder, VolatilePaths.of(List.of())), capacity);
    }

    @Test
    void readsAnAnswerWhenFirstAskedAndKeepsIt() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        RecordedReplies replies = replies(4);
        Reply first = replies.reply(plan);
        assertEquals("a plan", first.body().get("answer").asString());
        assertEquals(420, first.firstTokenMs().getAsLong());
        Files.delete(plan.file());
        assertSame(first, replies.reply(plan));
    }

    @Test
    void keepsOnlyTheMostRecentlyUsedAndReadsTheOthersAgain() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        OpExchange patch = cassette("patch", "a patch");
        OpExchange review = cassette("review", "a review");
        RecordedReplies replies = replies(2);
        Reply planReply = replies.reply(plan);
        replies.reply(patch);
        replies.reply(plan);
        replies.reply(review);  // the least recently used, patch, goes
        assertSame(planReply, replies.reply(plan));
        Files.writeString(patch.file(), "{\"request\": {\"op\": \"patch\"}, \"response\": {\"answer\": \"again\"}}");
        assertEquals("again", replies.reply(patch).body().get("answer").asString());
    }

    @Test
    void takesAnAnswerOfferedWhileTheRehearsalWasPrepared() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        RecordedReplies replies = replies(4);
        Reply offered = new Reply(dev.resilienceharness.json.Json.readTree("{\"answer\": \"offered\"}"),
                java.util.OptionalLong.empty());
        replies.offer(plan.file(), offered);
        assertSame(offered, replies.reply(plan));
        assertNotSame(offered, replies(4).reply(plan));
    }

    @Test
    void aCassetteThatNoLongerReadsIsACassetteProblemNamingTheOp() throws IOException {
        OpExchange plan = cassette("plan", "a plan");
        Files.writeString(plan.file(), "{not json");
        RecordedReplies.Unreadable e = assertThrows(RecordedReplies.Unreadable.class, () -> replies(4).reply(plan));
        assertTrue(e.getMessage().startsWith("the cassette for op 'plan' changed during the build and cannot be read: "),
                e.getMessage());
    }
}
