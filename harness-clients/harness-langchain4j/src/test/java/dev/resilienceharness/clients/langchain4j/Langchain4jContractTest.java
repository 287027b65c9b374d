package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.resilienceharness.clients.tck.AdapterContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.loop.LoopRun;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The adapter contract, run on langchain4j's real OpenAiChatModel and OpenAiStreamingChatModel. langchain4j's
 * exceptions carry no headers, so a {@code Retry-After} never reaches the loop, and its retry layer sleeps with
 * {@code Thread.sleep}, which the harness interrupts and reports under bounded_wait.
 */
class Langchain4jContractTest extends AdapterContract {

    @Override
    protected ApiShape api() {
        return ApiShape.CHAT_COMPLETIONS;
    }

    @Override
    protected String sdk() {
        return Langchain4jSdk.LABEL;
    }

    @Override
    protected boolean retryAfterReachesTheLoop() {
        return false;
    }

    @Override
    protected boolean sdkWaitsVirtually() {
        return false;
    }

    @Override
    protected Client client(LoopRun run, Settings settings) {
        OpenAiChatModel.OpenAiChatModelBuilder chat = HarnessLangChain4j.builder(run).modelName("gpt-4o-mini");
        OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder streaming = HarnessLangChain4j.streamingBuilder(run)
                .modelName("gpt-4o-mini");
        if (settings.maxRetries() != null) {
            chat.maxRetries(settings.maxRetries());
        }
        if (settings.timeout() != null) {
            chat.timeout(settings.timeout());
            streaming.timeout(settings.timeout());
        }
        OpenAiChatModel model = chat.build();
        OpenAiStreamingChatModel streamingModel = streaming.build();
        return new Client() {
            @Override
            public Answer ask(String prompt) {
                AiMessage message = model.chat(request(prompt)).aiMessage();
                return new Answer(message.text() == null ? "" : message.text(),
                        message.toolExecutionRequests().stream().map(ToolExecutionRequest::arguments).toList());
            }

            @Override
            public String stream(String prompt) {
                StringBuilder text = new StringBuilder();
                StreamedAnswer handler = new StreamedAnswer(text::append);
                streamingModel.chat(request(prompt), handler);
                CompletableFuture<ChatResponse> answer = handler.answer;
                // The adapter streams on the calling thread: the handler has been called by now.
                if (!answer.isDone()) {
                    throw new IllegalStateException("the streamed answer did not arrive");
                }
                try {
                    answer.join();
                } catch (CompletionException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : e;
                }
                return text.toString();
            }
        };
    }

    private static ChatRequest request(String prompt) {
        return ChatRequest.builder().messages(UserMessage.from(prompt)).build();
    }

    @Override
    protected Failure failure(RuntimeException thrown) {
        if (thrown instanceof RateLimitException) {
            return new Failure(Kind.QUOTA, null);
        }
        if (thrown instanceof InternalServerException
                || thrown instanceof HttpException http && http.statusCode() >= 500) {
            return new Failure(Kind.SERVER_ERROR, null);
        }
        if (thrown instanceof TimeoutException) {
            return new Failure(Kind.TIMEOUT, null);
        }
        return new Failure(Kind.OTHER, null);
    }
}
