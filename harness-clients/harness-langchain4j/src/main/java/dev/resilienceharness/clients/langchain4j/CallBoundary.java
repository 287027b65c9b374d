package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;

/**
 * Marks where each {@code chat} call of the model begins: langchain4j calls its listeners once per call, before its
 * retry layer, on the calling thread; every HTTP attempt after that until the next call belongs to this one.
 */
final class CallBoundary implements ChatModelListener {

    private final SdkRetries retries;

    CallBoundary(SdkRetries retries) {
        this.retries = retries;
    }

    @Override
    public void onRequest(ChatModelRequestContext context) {
        retries.callStarted();
    }
}
