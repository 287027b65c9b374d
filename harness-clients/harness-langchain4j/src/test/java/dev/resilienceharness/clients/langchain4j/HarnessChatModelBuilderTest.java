package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.chat.listener.ChatModelResponseContext;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HarnessChatModelBuilderTest {

    @TempDir
    Path dir;

    /** A team's own listener: it notes what the model told it. */
    private static final class Noting implements ChatModelListener {
        final List<String> heard = new ArrayList<>();

        @Override
        public void onRequest(ChatModelRequestContext context) {
            heard.add("request");
        }

        @Override
        public void onResponse(ChatModelResponseContext context) {
            heard.add("response " + context.chatResponse().aiMessage().text());
        }
    }

    @Test
    void theModelHasTheCallBoundaryAsItsOnlyListenerByDefault() throws Exception {
        AtomicReference<List<ChatModelListener>> listeners = new AtomicReference<>();
        Probe.run(dir, "calm", run -> listeners.set(HarnessLangChain4j.chatModel(run, "gpt-4o-mini").listeners()));

        assertEquals(1, listeners.get().size());
        assertInstanceOf(CallBoundary.class, listeners.get().get(0));
    }

    @Test
    void theTeamsListenersAreAddedAfterTheCallBoundaryAndHearTheCall() throws Exception {
        Noting team = new Noting();
        AtomicReference<OpenAiChatModel> model = new AtomicReference<>();
        Probe.run(dir, "calm", run -> {
            model.set(HarnessLangChain4j.builder(run).modelName("gpt-4o-mini").listeners(team).build());
            model.get().chat("plan the fix");
        });

        List<ChatModelListener> listeners = model.get().listeners();
        assertEquals(2, listeners.size());
        assertInstanceOf(CallBoundary.class, listeners.get(0));
        assertSame(team, listeners.get(1));
        assertEquals(List.of("request", "response 1. reproduce 2. fix 3. test"), team.heard);
    }

    @Test
    void settingNoListenersKeepsTheCallBoundary() throws Exception {
        AtomicReference<List<ChatModelListener>> listeners = new AtomicReference<>();
        Probe.run(dir, "calm", run -> listeners.set(HarnessLangChain4j.builder(run).modelName("gpt-4o-mini")
                .listeners((List<ChatModelListener>) null).build().listeners()));

        assertEquals(1, listeners.get().size());
        assertInstanceOf(CallBoundary.class, listeners.get().get(0));
    }
}
