package dev.resilienceharness.clients.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.ObjectMappers;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.InternalServerException;
import com.anthropic.errors.RateLimitException;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawContentBlockDeltaEvent;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.resilienceharness.clients.tck.AdapterContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopRun;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The adapter contract, run on a real anthropic-java client. */
class AnthropicContractTest extends AdapterContract {

    @Override
    protected ApiShape api() {
        return ApiShape.MESSAGES;
    }

    @Override
    protected String sdk() {
        return AnthropicSdk.LABEL;
    }

    @Override
    protected Client client(LoopRun run, Settings settings) {
        HarnessAnthropic.Builder builder = HarnessAnthropic.builder(run);
        if (settings.maxRetries() != null) {
            builder.maxRetries(settings.maxRetries());
        }
        if (settings.timeout() != null) {
            builder.timeout(settings.timeout());
        }
        AnthropicClient client = builder.build();
        return new Client() {
            @Override
            public Answer ask(String prompt) {
                Message message = client.messages().create(params(prompt));
                StringBuilder text = new StringBuilder();
                List<String> arguments = new ArrayList<>();
                for (ContentBlock block : message.content()) {
                    block.text().ifPresent(t -> text.append(t.text()));
                    block.toolUse().ifPresent(t -> arguments.add(input(t._input())));
                }
                return new Answer(text.toString(), arguments);
            }

            @Override
            public String stream(String prompt) {
                StringBuilder text = new StringBuilder();
                try (StreamResponse<RawMessageStreamEvent> stream = client.messages()
                        .createStreaming(params(prompt))) {
                    stream.stream().forEach(event -> event.contentBlockDelta().map(RawContentBlockDeltaEvent::delta)
                            .flatMap(delta -> delta.text()).ifPresent(t -> text.append(t.text())));
                }
                return text.toString();
            }
        };
    }

    private static MessageCreateParams params(String prompt) {
        return MessageCreateParams.builder().model("claude-sonnet-4-5").maxTokens(512).addUserMessage(prompt).build();
    }

    /** The tool call's input as the SDK delivered it: an object's JSON, or the text a string input holds. */
    private static String input(Object input) {
        JsonNode node;
        try {
            node = Json.readTree(ObjectMappers.jsonMapper().writeValueAsString(input));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the tool call's input cannot be written as JSON", e);
        }
        return node.isString() ? node.asString() : Json.compact(node);
    }

    @Override
    protected Failure failure(RuntimeException thrown) {
        if (thrown instanceof RateLimitException e) {
            return new Failure(Kind.QUOTA, e.headers().values("retry-after").stream().findFirst().orElse(null));
        }
        if (thrown instanceof InternalServerException) {
            return new Failure(Kind.SERVER_ERROR, null);
        }
        if (thrown instanceof AnthropicIoException && thrown.getCause() instanceof SocketTimeoutException) {
            return new Failure(Kind.TIMEOUT, null);
        }
        return new Failure(Kind.OTHER, null);
    }
}
