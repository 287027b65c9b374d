package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.anthropic.backends.Backend;
import com.anthropic.bedrock.backends.BedrockBackend;
import org.junit.jupiter.api.Test;

/** A client on anthropic-java's Bedrock backend, bound to a run: the contract (its streams: BedrockStreamingTest). */
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

    @Override
    void assertCloudsOwnError(com.anthropic.errors.RateLimitException e) {
        assertEquals(java.util.List.of("ThrottlingException"), e.headers().values("x-amzn-ErrorType"));
        assertEquals(java.util.Optional.empty(), e.apiMessage(), "Bedrock's message is not error.message");
        assertEquals("429: {\"message\":\"injected quota fault: rate limit reached\"}", e.getMessage());
    }
}
