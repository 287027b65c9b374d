package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The handler the tests' streaming loops give langchain4j's streaming model: each partial response goes to the
 * loop as it comes, and {@link #answer} completes with the whole response or the error the handler heard.
 */
final class StreamedAnswer implements StreamingChatResponseHandler {

    /** The response, or the error; done once the handler has been called. */
    final CompletableFuture<ChatResponse> answer = new CompletableFuture<>();
    private final Consumer<String> partials;

    StreamedAnswer(Consumer<String> partials) {
        this.partials = partials;
    }

    @Override
    public void onPartialResponse(String partial) {
        partials.accept(partial);
    }

    @Override
    public void onCompleteResponse(ChatResponse response) {
        answer.complete(response);
    }

    @Override
    public void onError(Throwable error) {
        answer.completeExceptionally(error);
    }
}
