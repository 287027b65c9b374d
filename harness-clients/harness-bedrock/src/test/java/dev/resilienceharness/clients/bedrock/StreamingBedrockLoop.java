package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import software.amazon.awssdk.core.document.Document;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamRequest;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import software.amazon.awssdk.services.bedrockruntime.model.Tool;
import software.amazon.awssdk.services.bedrockruntime.model.ToolConfiguration;
import software.amazon.awssdk.services.bedrockruntime.model.ToolInputSchema;
import software.amazon.awssdk.services.bedrockruntime.model.ToolSpecification;
import tools.jackson.databind.node.StringNode;

/**
 * A loop a team writes on Bedrock's {@code ConverseStream}: it emits each text delta as it comes and assembles a
 * tool's input from its fragments through {@link ConverseStreamResponseHandler}. Careful, it retries a broken stream
 * only while no text has arrived, and once text has been emitted keeps it and ends the op degraded; careless, it
 * retries whenever the stream breaks and emits the retry's text after what it already emitted. By default its client
 * has the SDK's retries off ({@code noRetries()}): the SDK's retry stage would otherwise retry a stream that broke
 * after its 200 and hand the retry's events to the same handler. An {@link Error} inside the future's failure (the
 * run's crash signal) is rethrown.
 */
final class StreamingBedrockLoop implements AgentLoop {

    static final String MODEL = "anthropic.claude-3-haiku-20240307-v1:0";

    private final boolean careful;
    private final Function<LoopRun, BedrockRuntimeAsyncClient> clients;

    /** What reached the handler's {@code onError} (the SDK's {@code exceptionOccurred}), in order. */
    final List<Throwable> handlerErrors = Collections.synchronizedList(new ArrayList<>());
    /** What the call's future failed with, unwrapped, in order. */
    final List<Throwable> broken = new ArrayList<>();
    /** Each tool input the loop assembled from its fragments. */
    final List<String> toolInputs = new ArrayList<>();

    StreamingBedrockLoop(boolean careful) {
        this(careful, run -> HarnessBedrock.asyncBuilder(run).noRetries().build());
    }

    StreamingBedrockLoop(boolean careful, Function<LoopRun, BedrockRuntimeAsyncClient> clients) {
        this.careful = careful;
        this.clients = clients;
    }

    static ConverseStreamRequest request(String op) {
        ConverseStreamRequest.Builder b = ConverseStreamRequest.builder().modelId(MODEL);
        if ("patch".equals(op)) {
            Document schema = Document.mapBuilder().putString("type", "object")
                    .putList("required", l -> l.addString("path").addString("content"))
                    .putDocument("properties", Document.mapBuilder()
                            .putDocument("path", Document.mapBuilder().putString("type", "string").build())
                            .putDocument("content", Document.mapBuilder().putString("type", "string").build())
                            .build())
                    .build();
            b.toolConfig(ToolConfiguration.builder().tools(Tool.fromToolSpec(ToolSpecification.builder()
                    .name("write_file").description("Writes a file.")
                    .inputSchema(ToolInputSchema.fromJson(schema)).build())).build());
        }
        String prompt = "patch".equals(op) ? "Write the validator." : "plan".equals(op)
                ? "Plan the fix in one sentence." : "Another prompt, never recorded.";
        return b.messages(Message.builder().role(ConversationRole.USER).content(ContentBlock.fromText(prompt))
                .build()).build();
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        BedrockRuntimeAsyncClient client = clients.apply(run);
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            try (var scope = run.op(op)) {
                outcomes.add(attempt(run, client, op));
            }
        }
        return outcomes;
    }

    private Outcome attempt(LoopRun run, BedrockRuntimeAsyncClient client, String op) {
        StringBuilder emitted = new StringBuilder();
        int attempts = 0;
        while (true) {
            attempts++;
            int before = emitted.length();
            StringBuilder input = new StringBuilder();
            int[] events = {0};
            ConverseStreamResponseHandler handler = ConverseStreamResponseHandler.builder()
                    .subscriber(ConverseStreamResponseHandler.Visitor.builder()
                            .onDefault(e -> events[0]++)
                            .onMessageStart(e -> events[0]++)
                            .onContentBlockStart(e -> events[0]++)
                            .onContentBlockStop(e -> events[0]++)
                            .onMessageStop(e -> events[0]++)
                            .onMetadata(e -> events[0]++)
                            .onContentBlockDelta(e -> {
                                events[0]++;
                                if (e.delta().text() != null) {
                                    emitted.append(e.delta().text());
                                }
                                if (e.delta().toolUse() != null) {
                                    input.append(e.delta().toolUse().input());
                                }
                            }).build())
                    .onError(handlerErrors::add)
                    .build();
            try {
                client.converseStream(request(op), handler).join();
            } catch (CompletionException e) {
                for (Throwable c = e; c != null; c = c.getCause()) {
                    if (c instanceof Error crash) {
                        throw crash; // the process died: let it die, so that the run restarts it
                    }
                }
                broken.add(e.getCause());
                boolean textArrived = emitted.length() > before;
                if (careful && textArrived) {
                    // Emitted text cannot be taken back: a retry would emit it again.
                    return new Outcome(op, Status.DEGRADED, StringNode.valueOf(emitted.toString()), "timeout", null,
                            attempts, null, null).streamed(events[0] + 1, Outcome.KEPT);
                }
                if (attempts >= run.policy().maxAttempts()) {
                    return Outcome.degraded(op, "timeout", attempts);
                }
                run.sleeper().sleep(run.policy().backoff(attempts));
                continue;
            }
            if (input.length() > 0) {
                toolInputs.add(input.toString());
                try {
                    return Outcome.ok(op, StringNode.valueOf(Json.readTree(input.toString()).path("path").asString()),
                            attempts);
                } catch (RuntimeException e) {
                    return Outcome.degraded(op, "schema", attempts);
                }
            }
            return Outcome.ok(op, StringNode.valueOf(emitted.toString()), attempts);
        }
    }
}
