package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.resilienceharness.loop.LoopRun;
import java.util.ArrayList;
import java.util.List;

/**
 * langchain4j's own {@link OpenAiChatModel.OpenAiChatModelBuilder}, wired to one scenario run, that keeps the
 * {@link CallBoundary} among the model's listeners whatever listeners the team sets: {@code listeners(...)} adds to
 * it instead of replacing it. Everything else, {@code build()} included, is langchain4j's.
 */
final class HarnessChatModelBuilder extends OpenAiChatModel.OpenAiChatModelBuilder {

    private final CallBoundary boundary;

    HarnessChatModelBuilder(LoopRun run) {
        SdkRetries retries = new SdkRetries();
        this.boundary = new CallBoundary(retries);
        httpClientBuilder(new HarnessHttpClientBuilder(run.http(), retries, run::waited));
        baseUrl(HarnessLangChain4j.BASE_URL);
        apiKey(HarnessLangChain4j.API_KEY);
        listeners(List.of());
    }

    /** The team's listeners, after the one that marks where each {@code chat} call begins. */
    @Override
    public OpenAiChatModel.OpenAiChatModelBuilder listeners(List<ChatModelListener> listeners) {
        List<ChatModelListener> all = new ArrayList<>();
        all.add(boundary);
        if (listeners != null) {
            for (ChatModelListener l : listeners) {
                if (l != boundary) {
                    all.add(l);
                }
            }
        }
        return super.listeners(all);
    }
}
