package com.example.agent;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import java.util.List;
import java.util.Map;

/**
 * The team's production code for one support turn: the model reads a ticket, asks for the {@code refund} tool, gets its
 * receipt back and writes the reply. It takes its client and a {@link Tools} runner from outside: production runs each
 * tool directly, and the rehearsal runs each through the harness ({@code run.tool}), which sees, fails and judges it.
 */
public final class RefundAgent {

    /** How the agent runs a tool the model asked for. */
    @FunctionalInterface
    public interface Tools {
        String run(String name, String arguments, Body body) throws Exception;
    }

    /** A tool's own code. */
    @FunctionalInterface
    public interface Body {
        String run() throws Exception;
    }

    /** The most model rounds one turn may take: the yaml's policy.max_rounds says the same. */
    static final int MAX_ROUNDS = 2;

    private static final ChatCompletionFunctionTool REFUND = ChatCompletionFunctionTool.builder()
            .function(FunctionDefinition.builder()
                    .name("refund")
                    .description("Refund part of an order to the customer's card")
                    .parameters(FunctionParameters.builder()
                            .putAdditionalProperty("type", JsonValue.from("object"))
                            .putAdditionalProperty("properties", JsonValue.from(properties()))
                            .putAdditionalProperty("required", JsonValue.from(List.of("order_id", "amount_cents",
                                    "refund_id")))
                            .build())
                    .build())
            .build();

    private final OpenAIClient client;
    private final Billing billing;

    /** The refund tool's parameters, in a fixed order: the request is the same bytes in every JVM. */
    private static Map<String, Object> properties() {
        Map<String, Object> p = new java.util.LinkedHashMap<>();
        p.put("order_id", Map.of("type", "string"));
        p.put("amount_cents", Map.of("type", "integer"));
        p.put("refund_id", Map.of("type", "string"));
        return p;
    }

    public RefundAgent(OpenAIClient client, Billing billing) {
        this.client = client;
        this.billing = billing;
    }

    /** Resolves one ticket: at most {@link #MAX_ROUNDS} model rounds, each tool call run through {@code tools}. */
    public String resolve(String ticket, Tools tools) throws Exception {
        ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder()
                .model("gpt-4o-mini")
                .addTool(REFUND)
                .addUserMessage("Resolve this support ticket. Refund with the refund tool when the customer was"
                        + " charged wrongly, using the ticket id as the refund_id. Ticket: " + ticket);
        for (int round = 1; round <= MAX_ROUNDS; round++) {
            ChatCompletionMessage answer = client.chat().completions().create(params.build()).choices().get(0)
                    .message();
            List<ChatCompletionMessageToolCall> calls = answer.toolCalls().orElse(List.of());
            if (calls.isEmpty()) {
                return answer.content().orElse("");
            }
            params.addMessage(answer);
            for (ChatCompletionMessageToolCall call : calls) {
                ChatCompletionMessageFunctionToolCall function = call.asFunction();
                String result = tools.run(function.function().name(), function.function().arguments(),
                        () -> refund(function.function().arguments()));
                params.addMessage(ChatCompletionToolMessageParam.builder().toolCallId(function.id()).content(result)
                        .build());
            }
        }
        throw new IllegalStateException("the model still asked for tools after " + MAX_ROUNDS + " rounds");
    }

    private String refund(String arguments) {
        tools.jackson.databind.JsonNode args = new tools.jackson.databind.ObjectMapper().readTree(arguments);
        return billing.refund(args.path("order_id").asString(), args.path("amount_cents").asLong(),
                args.path("refund_id").asString());
    }

    /** The receipt of the refund the arguments ask for, if it already went through. */
    public java.util.Optional<String> receipt(String arguments) {
        return billing.receipt(new tools.jackson.databind.ObjectMapper().readTree(arguments).path("refund_id")
                .asString());
    }
}
