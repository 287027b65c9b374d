package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CompletionEventsTest {

    private static final String TEXT = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":7,\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},"
            + "\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}";

    private static String events(String body, String request) {
        return new String(CompletionEvents.of(body.getBytes(StandardCharsets.UTF_8),
                request.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    @Test
    void aTextAnswerIsOneContentChunkAFinishChunkAndDone() {
        assertEquals("""
                data: {"id":"c1","created":7,"model":"m","object":"chat.completion.chunk","choices":[{"index":0,\
                "delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}

                data: {"id":"c1","created":7,"model":"m","object":"chat.completion.chunk","choices":[{"index":0,\
                "delta":{},"finish_reason":"stop"}]}

                data: [DONE]

                """, events(TEXT, "{\"stream\":true}"));
    }

    @Test
    void usageIsStreamedWhenTheRequestAsksForIt() {
        String events = events(TEXT, "{\"stream\":true,\"stream_options\":{\"include_usage\":true}}");
        assertEquals(true, events.contains("data: {\"id\":\"c1\",\"created\":7,\"model\":\"m\",\"object\":"
                + "\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,"
                + "\"total_tokens\":2}}\n\ndata: [DONE]\n\n"), events);
    }

    @Test
    void toolCallsGetTheIndexAStreamGivesThem() {
        String body = "{\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":null,\"tool_calls\":[{\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"f\","
                + "\"arguments\":\"{}\"}},{\"id\":\"b\",\"type\":\"function\",\"function\":{\"name\":\"g\","
                + "\"arguments\":\"{\\\"x\\\":1}\"}}]},\"finish_reason\":\"tool_calls\"}]}";
        String first = events(body, "{}").split("\n\n")[0];
        assertEquals("data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":"
                + "\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"type\":\"function\","
                + "\"function\":{\"name\":"
                + "\"f\",\"arguments\":\"{}\"}},{\"index\":1,\"id\":\"b\",\"type\":\"function\",\"function\":{\"name\":"
                + "\"g\",\"arguments\":\"{\\\"x\\\":1}\"}}]},\"finish_reason\":null}]}", first);
    }

    @Test
    void anythingButACompletionIsOneEvent() {
        assertEquals("data: {\"error\":{\"message\":\"no\"}}\n\ndata: [DONE]\n\n",
                events("{\"error\": {\"message\": \"no\"}}", "{}"));
    }
}
