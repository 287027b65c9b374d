package dev.resilienceharness.clients.anthropic;

import com.anthropic.bedrock.backends.BedrockBackend;
import software.amazon.awssdk.regions.Region;

/**
 * anthropic-java's own Amazon Bedrock backend ({@code anthropic-java-bedrock}) with placeholder credentials, for
 * {@link HarnessAnthropic.Builder#backend}: requests go to {@code model/{modelId}/invoke} (streams to
 * {@code invoke-with-response-stream}) with {@code anthropic_version} in the body, as on Bedrock, and are answered by
 * the run; a stream in the AWS event-stream frames Bedrock sends, which the backend decodes on a thread of its own.
 */
public final class HarnessAnthropicBedrock {

    /**
     * The region the backend is built for; its endpoint is never reached, and the run's cassettes do not depend on
     * it.
     */
    static final Region REGION = Region.US_EAST_1;

    private HarnessAnthropicBedrock() {
    }

    /**
     * The backend, authorizing with a placeholder Bedrock API key ({@code Authorization: Bearer harness-replay}) that
     * never leaves the process: no AWS credentials are looked up and no request is signed.
     */
    public static BedrockBackend backend() {
        return BedrockBackend.builder().apiKey(HarnessAnthropic.REPLAY_KEY).region(REGION).build();
    }
}
