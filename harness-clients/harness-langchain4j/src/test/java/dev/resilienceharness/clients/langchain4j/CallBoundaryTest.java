package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

class CallBoundaryTest {

    @Test
    void eachRequestTheModelAnnouncesStartsANewChatCall() {
        SdkRetries retries = new SdkRetries();
        CallBoundary boundary = new CallBoundary(retries);
        ChatModelRequestContext context = new ChatModelRequestContext(
                ChatRequest.builder().messages(UserMessage.from("plan the fix")).build(), ModelProvider.OPEN_AI,
                new HashMap<>());
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);

        boundary.onRequest(context);
        assertEquals(0, retries.attempt(body, Duration.ZERO));
        assertEquals(1, retries.attempt(body, Duration.ZERO));
        boundary.onRequest(context);
        assertEquals(0, retries.attempt(body, Duration.ZERO));
    }
}
