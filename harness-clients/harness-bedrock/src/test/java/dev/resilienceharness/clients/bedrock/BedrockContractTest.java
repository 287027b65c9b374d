package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.clients.tck.AdapterContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopRun;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.document.Document;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.Message;

/**
 * The adapter contract, run on a real Bedrock Runtime client (Converse), recording through the adapter included: the
 * contract's provider on 127.0.0.1 answers Converse and takes the recorder's key as a Bedrock API key (Bearer). A
 * timeout is the client's {@code apiCallAttemptTimeout}. {@code ConverseStream} is not spoken yet, so the streamed
 * op is left out.
 */
class BedrockContractTest extends AdapterContract {

    private static final String MODEL = "anthropic.claude-3-haiku-20240307-v1:0";

    @Override
    protected ApiShape api() {
        return ApiShape.BEDROCK;
    }

    @Override
    protected String sdk() {
        return "aws-sdk-bedrockruntime 2.";
    }

    @Override
    protected boolean streams() {
        return false;
    }

    @Override
    protected String noRetriesFix() {
        return "AwsRetryStrategy.doNotRetry()";
    }

    @Override
    protected AdapterContract.Client client(LoopRun run, Settings settings) {
        HarnessBedrock.Builder builder = HarnessBedrock.builder(run);
        if (settings.maxRetries() != null && settings.maxRetries() == 0) {
            builder.noRetries();
        }
        builder.customize(b -> b.overrideConfiguration(o -> {
            if (settings.maxRetries() != null && settings.maxRetries() > 0) {
                o.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(settings.maxRetries() + 1).build());
            }
            if (settings.timeout() != null) {
                o.apiCallAttemptTimeout(settings.timeout());
            }
        }));
        BedrockRuntimeClient client = builder.build();
        return new AdapterContract.Client() {
            @Override
            public Answer ask(String prompt) {
                ConverseResponse r = client.converse(q -> q.modelId(MODEL).messages(Message.builder()
                        .role(ConversationRole.USER).content(ContentBlock.fromText(prompt)).build()));
                StringBuilder text = new StringBuilder();
                List<String> arguments = new ArrayList<>();
                for (ContentBlock block : r.output().message().content()) {
                    if (block.text() != null) {
                        text.append(block.text());
                    }
                    if (block.toolUse() != null) {
                        arguments.add(json(block.toolUse().input()));
                    }
                }
                return new Answer(text.toString(), arguments);
            }

            @Override
            public String stream(String prompt) {
                throw new UnsupportedOperationException("ConverseStream is not spoken by the adapter yet");
            }
        };
    }

    /** A tool call's input as the loop would hand it on: JSON text, or the string the model sent. */
    private static String json(Document input) {
        Object value = input.unwrap();
        return value instanceof String s ? s : Json.compact(Json.mapper().valueToTree(value));
    }

    @Override
    protected Failure failure(RuntimeException thrown) {
        if (thrown instanceof AwsServiceException e && e.statusCode() == 429) {
            return new Failure(Kind.QUOTA, e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("Retry-After")
                    .orElse(null));
        }
        if (thrown instanceof AwsServiceException e && e.statusCode() >= 500) {
            return new Failure(Kind.SERVER_ERROR, null);
        }
        if (thrown instanceof ApiCallAttemptTimeoutException
                || thrown instanceof SdkClientException && thrown.getCause() instanceof SocketTimeoutException) {
            return new Failure(Kind.TIMEOUT, null);
        }
        return new Failure(Kind.OTHER, null);
    }
}
