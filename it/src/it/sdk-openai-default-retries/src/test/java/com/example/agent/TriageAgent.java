package com.example.agent;

import com.openai.client.OpenAIClient;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

/**
 * The team's production code: one step of the triage agent, written against openai-java. It takes its client from
 * outside (in production {@code OpenAIOkHttpClient.fromEnv()}), so the harness can hand it one bound to a scenario.
 */
public final class TriageAgent {

    private final OpenAIClient client;

    public TriageAgent(OpenAIClient client) {
        this.client = client;
    }

    /** Asks the model for one step and returns its answer. */
    public String step(String step) {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder()
                .model("gpt-4o-mini")
                .addUserMessage("Do the " + step + " step for the failing test in billing/invoice_test.py")
                .build();
        return client.chat().completions().create(params).choices().get(0).message().content().orElse("");
    }
}
