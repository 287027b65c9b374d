package dev.resilienceharness.clients.genai;

import com.google.genai.ResponseStream;
import com.google.genai.errors.ApiException;
import com.google.genai.errors.GenAiIOException;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentResponse;
import dev.resilienceharness.clients.tck.AdapterContract;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopRun;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * The adapter contract, run on a real google-genai client. Its exceptions carry no headers, its retry layer sleeps for
 * real, and it types a tool call's arguments as an object, so a cut-off one is an exception, not a 200.
 */
class GenaiContractTest extends AdapterContract {

    private static final String MODEL = "gemini-2.5-flash";

    @Override
    protected ApiShape api() {
        return ApiShape.GEMINI;
    }

    @Override
    protected String sdk() {
        return "google-genai 2.";
    }

    @Override
    protected boolean retryAfterReachesTheLoop() {
        return false;
    }

    @Override
    protected boolean sdkWaitsVirtually() {
        return false;
    }

    @Override
    protected boolean brokenToolArgumentsReachTheLoop() {
        return false;
    }

    @Override
    protected AdapterContract.Client client(LoopRun run, Settings settings) {
        HarnessGenai.Builder builder = HarnessGenai.builder(run);
        if (settings.maxRetries() != null) {
            if (settings.maxRetries() == 0) {
                builder.noRetries();
            } else {
                builder.attempts(settings.maxRetries() + 1);
            }
        }
        if (settings.timeout() != null) {
            builder.timeout(settings.timeout());
        }
        com.google.genai.Client client = builder.build();
        return new AdapterContract.Client() {
            @Override
            public Answer ask(String prompt) {
                GenerateContentResponse r = client.models.generateContent(MODEL, prompt, null);
                List<String> arguments = new ArrayList<>();
                List<FunctionCall> calls = r.functionCalls();
                for (FunctionCall call : calls == null ? List.<FunctionCall>of() : calls) {
                    arguments.add(Json.compact(Json.mapper().valueToTree(call.args().orElseThrow())));
                }
                return new Answer(r.text() == null ? "" : r.text(), arguments);
            }

            @Override
            public String stream(String prompt) {
                StringBuilder text = new StringBuilder();
                try (ResponseStream<GenerateContentResponse> stream = client.models.generateContentStream(MODEL,
                        prompt, null)) {
                    for (GenerateContentResponse chunk : stream) {
                        text.append(chunk.text() == null ? "" : chunk.text());
                    }
                }
                return text.toString();
            }
        };
    }

    @Override
    protected Failure failure(RuntimeException thrown) {
        if (thrown instanceof ApiException e && e.code() == 429) {
            return new Failure(Kind.QUOTA, null);
        }
        if (thrown instanceof ApiException e && e.code() >= 500) {
            return new Failure(Kind.SERVER_ERROR, null);
        }
        if (thrown instanceof GenAiIOException && thrown.getCause() instanceof SocketTimeoutException) {
            return new Failure(Kind.TIMEOUT, null);
        }
        return new Failure(Kind.OTHER, null);
    }
}
