package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.Provider;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.FaultAnswer;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.ProviderStub;
import dev.resilienceharness.live.UnexpectedStatus;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.TransientError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class ProxyRecordingTest {

    @TempDir
    Path dir;

    final ObjectNode plan = (ObjectNode) Json.readTree(ReplayProxyTest.PLAN);

    CassetteStore store(Mode mode) {
        return new CassetteStore(dir.resolve("cassettes"), VolatilePaths.of(List.of("response.id")), mode,
                c -> c.put("redacted", true));
    }

    @Test
    void forwardsWritesTheRedactedCassetteAndAnswersWhatWasWritten() throws Exception {
        try (ProviderStub stub = ProviderStub.start()) {
            LiveTransport live = LiveTransport.connect(new Provider(stub.baseUrl(), "PROVIDER_API_KEY"),
                    ProviderStub.ENV::get);
            CassetteStore store = store(Mode.RECORD_MISSING);
            ProxyRecording recording = new ProxyRecording(store, live);
            FaultAnswer a = recording.record(ApiShape.CHAT_COMPLETIONS, plan);
            assertEquals(200, a.status());
            assertEquals("answer to plan the fix", a.body().at("/choices/0/message/content").asString());
            assertEquals("chatcmpl-" + store.fingerprint(plan), a.body().get("id").asString(),
                    "the client gets the stripped answer, with its id put back");
            assertTrue(Files.readString(store.fileFor(store.fingerprint(plan))).contains("\"redacted\""));
            recording.record(ApiShape.CHAT_COMPLETIONS, plan);
            assertEquals(1, stub.received().size(), "record-missing answers an existing cassette");
        }
    }

    @Test
    void relaysTheProvidersRefusalsInTheRequestsShape() {
        FaultAnswer quota = ProxyRecording.relay(ApiShape.MESSAGES, new QuotaExhausted("7"));
        assertEquals(429, quota.status());
        assertEquals(Map.of("Retry-After", "7"), quota.headers());
        assertEquals("rate_limit_error", quota.body().at("/error/type").asString());
        assertEquals(504, ProxyRecording.relay(ApiShape.CHAT_COMPLETIONS, TransientError.timeout()).status());
        assertEquals(503, ProxyRecording.relay(ApiShape.RESPONSES, TransientError.status(503)).status());
        assertEquals(401, ProxyRecording.relay(ApiShape.CHAT_COMPLETIONS,
                UnexpectedStatus.of("op", 401, "no")).status());
    }

    @Test
    void nothingIsWrittenForARefusal() throws Exception {
        CassetteStore store = store(Mode.RECORD);
        FaultAnswer a = new ProxyRecording(store, (op, r) -> {
            throw new QuotaExhausted(null);
        }).record(ApiShape.CHAT_COMPLETIONS, plan);
        assertEquals(429, a.status());
        assertTrue(store.files().isEmpty());
    }
}
