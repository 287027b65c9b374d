package dev.resilienceharness.clients.openai;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.RateLimitException;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import dev.resilienceharness.clients.tck.AdapterContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.loop.LoopRun;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/** The adapter contract, run on a real openai-java client. */
class OpenAiJavaContractTest extends AdapterContract {

    @Override
    protected ApiShape api() {
        return ApiShape.CHAT_COMPLETIONS;
    }

    @Override
    protected String sdk() {
        return "openai-java 4.";
    }

    @Override
    protected Client client(LoopRun run, Settings settings) {
        HarnessOpenAi.Builder builder = HarnessOpenAi.builder(run);
        if (settings.maxRetries() != null) {
            builder.maxRetries(settings.maxRetries());
        }
        if (settings.timeout() != null) {
            builder.timeout(settings.timeout());
        }
        OpenAIClient client = builder.build();
        return new Client() {
            @Override
            public Answer ask(String prompt) {
                ChatCompletionMessage message = client.chat().completions().create(params(prompt)).choices().get(0)
                        .message();
                List<String> arguments = new ArrayList<>();
                for (ChatCompletionMessageToolCall call : message.toolCalls().orElse(List.of())) {
                    arguments.add(call.asFunction().function().arguments());
                }
                return new Answer(message.content().orElse(""), arguments);
            }

            @Override
            public String stream(String prompt) {
                StringBuilder text = new StringBuilder();
                try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions()
                        .createStreaming(params(prompt))) {
                    stream.stream().forEach(chunk -> chunk.choices()
                            .forEach(choice -> choice.delta().content().ifPresent(text::append)));
                }
                return text.toString();
            }
        };
    }

    private static ChatCompletionCreateParams params(String prompt) {
        return ChatCompletionCreateParams.builder().model("gpt-4o-mini").addUserMessage(prompt).build();
    }

    @Override
    protected Failure failure(RuntimeException thrown) {
        if (thrown instanceof RateLimitException e) {
            List<String> retryAfter = e.headers().values("retry-after");
            return new Failure(Kind.QUOTA, retryAfter.isEmpty() ? null : retryAfter.get(0));
        }
        if (thrown instanceof InternalServerException) {
            return new Failure(Kind.SERVER_ERROR, null);
        }
        if (thrown instanceof OpenAIIoException && thrown.getCause() instanceof SocketTimeoutException) {
            return new Failure(Kind.TIMEOUT, null);
        }
        return new Failure(Kind.OTHER, null);
    }
}
