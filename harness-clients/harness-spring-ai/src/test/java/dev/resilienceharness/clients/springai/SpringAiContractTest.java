package dev.resilienceharness.clients.springai;

import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.RateLimitException;
import dev.resilienceharness.clients.tck.AdapterContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.loop.LoopRun;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatOptions;

/** The adapter contract, run on a real Spring AI OpenAiChatModel. */
class SpringAiContractTest extends AdapterContract {

    @Override
    protected ApiShape api() {
        return ApiShape.CHAT_COMPLETIONS;
    }

    @Override
    protected String sdk() {
        return HarnessSpringAi.SDK;
    }

    @Override
    protected Client client(LoopRun run, Settings settings) {
        OpenAiChatOptions.Builder options = OpenAiChatOptions.builder();
        if (settings.maxRetries() != null) {
            options.maxRetries(settings.maxRetries());
        }
        if (settings.timeout() != null) {
            options.timeout(settings.timeout());
        }
        ChatModel model = HarnessSpringAi.builder(run).options(options.build()).build();
        return new Client() {
            @Override
            public Answer ask(String prompt) {
                AssistantMessage message = model.call(new Prompt(prompt)).getResult().getOutput();
                return new Answer(message.getText() == null ? "" : message.getText(),
                        message.getToolCalls().stream().map(AssistantMessage.ToolCall::arguments).toList());
            }

            @Override
            public String stream(String prompt) {
                List<ChatResponse> parts;
                try {
                    parts = model.stream(new Prompt(prompt)).collectList().block();
                } catch (RuntimeException e) {
                    // The asynchronous client hands its failure over wrapped: the SDK's exception is the cause.
                    Throwable cause = e;
                    while (cause instanceof CompletionException && cause.getCause() != null) {
                        cause = cause.getCause();
                    }
                    if (cause instanceof Error err) {
                        throw err;
                    }
                    throw cause instanceof RuntimeException r ? r : e;
                }
                StringBuilder text = new StringBuilder();
                for (ChatResponse part : parts == null ? List.<ChatResponse>of() : parts) {
                    if (part.getResult() != null && part.getResult().getOutput().getText() != null) {
                        text.append(part.getResult().getOutput().getText());
                    }
                }
                return text.toString();
            }
        };
    }

    @Override
    protected Failure failure(RuntimeException thrown) {
        if (thrown instanceof RateLimitException e) {
            return new Failure(Kind.QUOTA, e.headers().values("retry-after").stream().findFirst().orElse(null));
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
