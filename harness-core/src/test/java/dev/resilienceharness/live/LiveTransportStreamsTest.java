package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore.Recorded;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.config.Provider;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.transport.TransientError;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A streamed Chat Completions answer, as {@link LiveTransport} records it: the chunks add up to the one
 * {@code chat.completion} a non-streaming call would have returned, the first token is the first chunk that carries
 * content, a refusal or a tool call, and a broken stream is refused with the provider's words.
 */
class LiveTransportStreamsTest {

    private ProviderStub stub;
    private LiveTransport live;

    @BeforeEach
    void start() throws Exception {
        stub = ProviderStub.start();
        live = LiveTransport.connect(new Provider(stub.baseUrl(), "PROVIDER_API_KEY"), ProviderStub.ENV::get,
                Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    private Recorded send() throws Exception {
        ObjectNode request = (ObjectNode) Json.readTree("{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":"
                + "\"user\",\"content\":\"plan\"}]}");
        return live.send("plan", request);
    }

    private static String events(String... payloads) {
        StringBuilder sb = new StringBuilder();
        for (String p : payloads) {
            sb.append("data: ").append(p).append("\n\n");
        }
        return sb.toString();
    }

    @Test
    void concatenatesContentDeltasAndKeepsTheLastFinishReasonAndUsage() throws Exception {
        stub.then(new ProviderStub.Named(List.of(
                new StreamEvent(0, "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\","
                        + "\"system_fingerprint\":\"fp\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                        + "\"content\":\"\"},\"finish_reason\":null}]}"),
                new StreamEvent(120, "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello, \"},"
                        + "\"finish_reason\":null}]}"),
                new StreamEvent(120, "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"world\"},"
                        + "\"finish_reason\":null}]}"),
                new StreamEvent(120, "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}"),
                new StreamEvent(120, "{\"id\":\"c\",\"choices\":[],\"usage\":{\"total_tokens\":9}}"),
                new StreamEvent(120, "[DONE]"))));
        Recorded r = send();
        List<StreamEvent> recorded = r.stream().events();
        assertEquals(6, recorded.size(), "five chunks and [DONE]");
        assertEquals(recorded.get(1).atMs(), r.timing().firstTokenMs(),
                "the empty role chunk is no token; \"Hello, \" is the first");
        assertTrue(r.timing().firstTokenMs() >= 120, "the first token came no sooner than it was sent: " + recorded);
        assertEquals(Json.readTree("{\"id\":\"c\",\"object\":\"chat.completion\",\"created\":7,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello, world\"},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"total_tokens\":9},\"system_fingerprint\":\"fp\"}"),
                r.response());
    }

    @Test
    void concatenatesToolCallArgumentsByIndex() throws Exception {
        stub.then(new ProviderStub.Raw(events(
                "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                        + "{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"edit\",\"arguments\":\"\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"run\",\"arguments\":\"{\\\"cmd\\\"\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"path\\\":\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\" \\\"a\\\"}\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\": \\\"ls\\\"}\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}",
                "[DONE]")));
        Recorded r = send();
        assertEquals(r.stream().events().get(0).atMs(), r.timing().firstTokenMs(),
                "a tool-call delta is the first token");
        JsonNode c = r.response();
        assertTrue(c.at("/choices/0/message/content").isNull());
        assertEquals("{\"path\": \"a\"}", c.at("/choices/0/message/tool_calls/0/function/arguments").asString());
        assertEquals("edit", c.at("/choices/0/message/tool_calls/0/function/name").asString());
        assertEquals("call_b", c.at("/choices/0/message/tool_calls/1/id").asString());
        assertEquals("{\"cmd\": \"ls\"}", c.at("/choices/0/message/tool_calls/1/function/arguments").asString());
        assertEquals("tool_calls", c.at("/choices/0/finish_reason").asString());
    }

    @Test
    void keepsChoicesApartAndIgnoresCommentsAndOtherFields() throws Exception {
        stub.then(new ProviderStub.Raw(": keep-alive\nevent: message\nid: 1\nretry: 10\n"
                + "data:{\"choices\":[{\"index\":1,\"delta\":{\"content\":\"B\"}},{\"index\":0,\"delta\":{\"content\":\"A\"}}]}\n"
                + "\ndata: [DONE]\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"after done\"}}]}\n\n"));
        JsonNode c = send().response();
        assertEquals("A", c.at("/choices/0/message/content").asString());
        assertEquals(1, c.at("/choices/1/index").asInt());
        assertEquals("B", c.at("/choices/1/message/content").asString());
    }

    @Test
    void joinsAnEventSplitOverSeveralDataLines() throws Exception {
        stub.then(new ProviderStub.Raw("data: {\"choices\":[{\"index\":0,\ndata: \"delta\":{\"content\":\"x\"}}]}\n\n"
                + "data: [DONE]\n\n"));
        assertEquals("x", send().response().at("/choices/0/message/content").asString());
    }

    @Test
    void aStreamWithoutDoneIsCompleteOnlyWhenEveryChoiceFinished() throws Exception {
        stub.then(new ProviderStub.Raw(events(
                "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":null}]}")));
        assertTrue(assertThrows(TransientError.class, this::send).isTimeout(), "a cut stream is a dropped answer");
        stub.then(new ProviderStub.Raw(events(
                "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}")));
        assertEquals("x", send().response().at("/choices/0/message/content").asString());
        stub.then(new ProviderStub.Raw(""));
        assertTrue(assertThrows(TransientError.class, this::send).isTimeout(), "nothing at all is not complete");
    }

    @Test
    void aLastEventWithoutBlankLineStillCounts() throws Exception {
        stub.then(new ProviderStub.Raw(
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}"));
        Recorded r = send();
        assertEquals("x", r.response().at("/choices/0/message/content").asString());
        assertNotNull(r.timing().firstTokenMs(), "the first token arrives with the final event");
    }

    @Test
    void brokenOrErrorChunksAreRefused() {
        stub.then(new ProviderStub.Raw(events("{\"choices\": [")));
        UnexpectedStatus notJson = assertThrows(UnexpectedStatus.class, this::send);
        assertTrue(notJson.getMessage().contains("its event stream is broken: a stream chunk is not JSON"),
                notJson.getMessage());
        stub.then(new ProviderStub.Raw(events("[1, 2]")));
        assertThrows(UnexpectedStatus.class, this::send);
        stub.then(new ProviderStub.Raw(events("{\"error\":{\"message\":\"overloaded\"}}")));
        UnexpectedStatus error = assertThrows(UnexpectedStatus.class, this::send);
        assertTrue(error.getMessage().contains("overloaded"), error.getMessage());
    }
}
