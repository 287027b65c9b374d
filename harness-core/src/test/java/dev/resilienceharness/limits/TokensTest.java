package dev.resilienceharness.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.json.Json;
import org.junit.jupiter.api.Test;

class TokensTest {

    @Test
    void chatCompletionsUsageIsPromptAndCompletionTokens() {
        assertEquals(new Tokens(12, 30), Tokens.of(null, Json.readTree(
                "{\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":30,\"total_tokens\":42}}")));
    }

    @Test
    void responsesAndMessagesUsageIsInputAndOutputTokens() {
        assertEquals(new Tokens(7, 9), Tokens.of(null, Json.readTree(
                "{\"usage\":{\"input_tokens\":7,\"output_tokens\":9}}")));
    }

    @Test
    void geminiUsageMetadataIsPromptInAndCandidatesWithThoughtsOut() {
        assertEquals(new Tokens(12, 9), Tokens.of(null, Json.readTree("{\"usageMetadata\": {\"promptTokenCount\": 12,"
                + " \"candidatesTokenCount\": 5, \"thoughtsTokenCount\": 4, \"totalTokenCount\": 21}}")));
    }

    @Test
    void aTotalAloneCountsAsInput() {
        assertEquals(new Tokens(42, 0), Tokens.of(null, Json.readTree("{\"usage\":{\"total_tokens\":42}}")));
        assertEquals(42, Tokens.of(null, Json.readTree("{\"usage\":{\"total_tokens\":42}}")).total());
    }

    @Test
    void withoutUsageOneTokenPerFourCharactersOfEachBodyRoundedUp() {
        // {"op":"plan"} is 13 characters: 4 tokens; {"done":"plan"} is 15: 4 tokens.
        assertEquals(new Tokens(4, 4), Tokens.of(Json.readTree("{\"op\":\"plan\"}"),
                Json.readTree("{\"done\":\"plan\"}")));
        // Characters, not bytes: five two-byte letters and the quotes are 7 characters.
        assertEquals(new Tokens(0, 2), Tokens.of(null, Json.readTree("\"ééééé\"")));
    }

    @Test
    void aUsageWithoutCountsFallsBackToTheEstimate() {
        assertEquals(new Tokens(0, 5), Tokens.of(null, Json.readTree("{\"usage\":{\"note\":1}}")));
    }
}
