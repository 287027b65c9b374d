package dev.resilienceharness.clients.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolChoiceTool;
import java.util.List;
import java.util.Map;

/**
 * Code a team ships: one Messages call per step of fixing a bug, on whatever client it is given. It knows nothing of
 * the harness; under test it gets {@link HarnessAnthropic#client}, in production {@code AnthropicOkHttpClient}.
 */
final class FixAgent {

    static final String MODEL = "claude-sonnet-4-5";

    /** The tool the patch step must call, with the schema its input must meet. */
    static final Tool WRITE_FILE = Tool.builder()
            .name("write_file")
            .description("Write one file of the repository")
            .inputSchema(Tool.InputSchema.builder()
                    .properties(JsonValue.from(Map.of(
                            "path", Map.of("type", "string"),
                            "content", Map.of("type", "string"))))
                    .required(List.of("path", "content"))
                    .build())
            .build();

    private final AnthropicClient client;
    private final String model;

    FixAgent(AnthropicClient client) {
        this(client, MODEL);
    }

    /** @param model the model as the client's backend names it (a Bedrock model id, a Vertex AI model) */
    FixAgent(AnthropicClient client, String model) {
        this.client = client;
        this.model = model;
    }

    /** Asks the model for step {@code op}. */
    Message step(String op) {
        return client.messages().create(params(op, model));
    }

    /** The request of each step. */
    static MessageCreateParams params(String op) {
        return params(op, MODEL);
    }

    /** The request of each step, for {@code model}. */
    static MessageCreateParams params(String op, String model) {
        MessageCreateParams.Builder b = MessageCreateParams.builder().model(model).maxTokens(512);
        return switch (op) {
            case "plan" -> b.addUserMessage("Plan the fix for issue 42: the login form rejects valid e-mail"
                    + " addresses with a plus sign.").build();
            case "patch" -> b.addUserMessage("Write the fixed EmailValidator.java.")
                    .addTool(WRITE_FILE)
                    .toolChoice(ToolChoiceTool.builder().name("write_file").build())
                    .build();
            case "review" -> b.addUserMessage("Review the fix for issue 42 in one sentence.").build();
            default -> throw new IllegalArgumentException("no step " + op);
        };
    }
}
