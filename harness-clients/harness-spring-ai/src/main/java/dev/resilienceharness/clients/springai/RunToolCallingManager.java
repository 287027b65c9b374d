package dev.resilienceharness.clients.springai;

import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.tool.ToolCall;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * A tool-calling manager (the team's own, or Spring AI's default) with every tool it executes run through the run's
 * tool gate ({@code run.tool(...)}, layer {@value #LAYER}), so that the scenario's {@code tool_faults:} reach the
 * tools Spring AI executes and each execution is in the run's trace.
 */
final class RunToolCallingManager implements ToolCallingManager {

    /** How the trace and the {@code side_effects} invariant name the tool executions Spring AI makes. */
    static final String LAYER = "Spring AI";

    private final LoopRun run;
    private final ToolCallingManager delegate;

    RunToolCallingManager(LoopRun run, ToolCallingManager delegate) {
        this.run = Objects.requireNonNull(run, "run");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
        return delegate.resolveToolDefinitions(chatOptions);
    }

    /**
     * The delegate executes the calls with each of the prompt's tool callbacks gated; the conversation it returns,
     * which the model sees next, is built from the original prompt's messages, as without the gate.
     */
    @Override
    public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
        ChatOptions options = prompt.getOptions();
        if (options instanceof ToolCallingChatOptions tooling && tooling.getToolCallbacks() != null
                && !tooling.getToolCallbacks().isEmpty()) {
            List<ToolCallback> gated = tooling.getToolCallbacks().stream()
                    .<ToolCallback>map(c -> c instanceof GatedToolCallback ? c : new GatedToolCallback(run, c))
                    .toList();
            prompt = new Prompt(prompt.getInstructions(), tooling.mutate().toolCallbacks(gated).build());
        }
        return delegate.executeToolCalls(prompt, chatResponse);
    }

    /** One of the prompt's tools, executed through the run's tool gate. */
    static final class GatedToolCallback implements ToolCallback {

        private final LoopRun run;
        private final ToolCallback tool;

        GatedToolCallback(LoopRun run, ToolCallback tool) {
            this.run = run;
            this.tool = tool;
        }

        @Override
        public ToolDefinition getToolDefinition() {
            return tool.getToolDefinition();
        }

        @Override
        public ToolMetadata getToolMetadata() {
            return tool.getToolMetadata();
        }

        @Override
        public String call(String toolInput) {
            return gated(toolInput, () -> tool.call(toolInput));
        }

        @Override
        public String call(String toolInput, ToolContext toolContext) {
            return gated(toolInput, () -> tool.call(toolInput, toolContext));
        }

        /**
         * The tool's own failures pass through as it threw them. An injected one reaches Spring AI as a {@code @Tool}
         * method's exception does (its {@code MethodToolCallback} wraps it in a {@code ToolExecutionException}),
         * so the manager's {@code ToolExecutionExceptionProcessor} decides: an {@code error} fault's message goes
         * back to the model by default, and a timeout's {@code SocketTimeoutException}, being checked, is rethrown.
         */
        private String gated(String toolInput, Supplier<String> own) {
            ToolCall call = ToolCall.of(getToolDefinition().name(),
                    toolInput == null || toolInput.isBlank() ? "{}" : toolInput).by(LAYER);
            RuntimeException[] ownFailure = new RuntimeException[1];
            try {
                return run.tool(call, () -> {
                    try {
                        return own.get();
                    } catch (RuntimeException e) {
                        ownFailure[0] = e;
                        throw e;
                    }
                });
            } catch (RuntimeException e) {
                if (e == ownFailure[0]) {
                    throw e;
                }
                throw new ToolExecutionException(getToolDefinition(), e);
            } catch (Exception e) {
                throw new ToolExecutionException(getToolDefinition(), e);
            }
        }
    }
}
