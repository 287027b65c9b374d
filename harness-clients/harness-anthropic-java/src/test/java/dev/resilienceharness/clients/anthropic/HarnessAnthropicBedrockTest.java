package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.anthropic.backends.Backend;
import com.anthropic.bedrock.backends.BedrockBackend;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.ScenarioResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A client on anthropic-java's Bedrock backend, bound to a run: the contract, and the stream it does not rehearse. */
class HarnessAnthropicBedrockTest extends BackendContract {

    static final String MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";

    @Override
    Backend backend() {
        return HarnessAnthropicBedrock.backend();
    }

    @Override
    String model() {
        return MODEL;
    }

    @Override
    String path(boolean stream) {
        return "model/" + MODEL + (stream ? "/invoke-with-response-stream" : "/invoke");
    }

    @Override
    String basePath() {
        return "";
    }

    @Test
    void theBackendIsTheSdksOwnWithAPlaceholderKeyAndNoAwsCredentials() {
        BedrockBackend backend = HarnessAnthropicBedrock.backend();
        assertEquals(HarnessAnthropic.REPLAY_KEY, backend.apiKey().orElseThrow());
        assertEquals(true, backend.awsCredentialsProvider().isEmpty(), "no AWS credentials are looked up");
        assertEquals("https://bedrock-runtime.us-east-1.amazonaws.com", backend.baseUrl());
    }

    @Test
    void aStreamThroughTheBedrockBackendIsRefusedBeforeItIsACallSayingWhatToRehearseInstead() {
        List<RuntimeException> thrown = new ArrayList<>();
        ScenarioResult result = check("clean", run -> {
            try (var scope = run.op("plan")) {
                client(run).messages().createStreaming(FixAgent.params("plan", MODEL)).stream().count();
            } catch (RuntimeException e) {
                thrown.add(e);
            }
            return List.of(Outcome.ok("plan", null, 1));
        });

        UnsupportedOperationException e = assertInstanceOf(UnsupportedOperationException.class, thrown.get(0));
        assertEquals("streaming through anthropic-java's Bedrock backend (POST model/" + MODEL
                + "/invoke-with-response-stream) is not rehearsed yet: Bedrock answers it in the AWS event-stream"
                + " framing, which the harness does not write. Rehearse this loop's non-streaming calls"
                + " (messages().create) on the Bedrock backend, and its streaming on Anthropic's API or the Vertex"
                + " backend", e.getMessage());
        assertEquals(List.of(), result.trace().calls(), "no attempt reached the run");
    }

    @Override
    void assertCloudsOwnError(com.anthropic.errors.RateLimitException e) {
        assertEquals(java.util.List.of("ThrottlingException"), e.headers().values("x-amzn-ErrorType"));
        assertEquals(java.util.Optional.empty(), e.apiMessage(), "Bedrock's message is not error.message");
        assertEquals("429: {\"message\":\"injected quota fault: rate limit reached\"}", e.getMessage());
    }
}
