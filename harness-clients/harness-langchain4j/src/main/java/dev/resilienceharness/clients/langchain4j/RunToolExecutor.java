package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.tool.ToolCall;
import java.util.Objects;

/**
 * A langchain4j tool executor run through the run's tool gate ({@code run.tool(...)}, layer {@value #LAYER}): each
 * execution meets the scenario's next {@code tool_faults:} entry for its tool and is in the run's trace. An injected
 * failure reaches langchain4j as the wrapped executor's own failures do: thrown as a {@link ToolExecutionException}
 * around it, as AiServices' {@code @Tool} executors throw a method's exception, or handed back as an error result, as
 * a {@code DefaultToolExecutor} a team builds itself does.
 */
final class RunToolExecutor implements ToolExecutor {

    /** How the trace and the {@code side_effects} invariant name the tool executions langchain4j makes. */
    static final String LAYER = "langchain4j";

    private final LoopRun run;
    private final ToolExecutor tool;
    private final boolean throwsFailures;

    /**
     * @param throwsFailures whether {@code tool} throws its failures (AiServices' executors) rather than answering
     *                       with an error result ({@code new DefaultToolExecutor(object, method)})
     */
    RunToolExecutor(LoopRun run, ToolExecutor tool, boolean throwsFailures) {
        this.run = Objects.requireNonNull(run, "run");
        this.tool = Objects.requireNonNull(tool, "tool");
        this.throwsFailures = throwsFailures;
    }

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
        return executeWithContext(request, InvocationContext.builder().chatMemoryId(memoryId).build()).resultText();
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
        String arguments = request.arguments() == null || request.arguments().isBlank() ? "{}" : request.arguments();
        ToolCall call = ToolCall.of(request.name(), arguments).by(LAYER);
        ToolExecutionResult[] own = new ToolExecutionResult[1];
        RuntimeException[] ownFailure = new RuntimeException[1];
        String text;
        try {
            text = run.tool(call, () -> {
                try {
                    own[0] = tool.executeWithContext(request, context);
                } catch (RuntimeException e) {
                    ownFailure[0] = e;
                    throw e;
                }
                if (own[0].isError()) {
                    // The tool failed and said so in its result: recorded as a failure, answered as it is.
                    throw new OwnErrorResult();
                }
                return own[0].resultText();
            });
        } catch (OwnErrorResult e) {
            return own[0];
        } catch (RuntimeException e) {
            if (e == ownFailure[0]) {
                throw e;
            }
            return injected(e);
        } catch (Exception e) {
            return injected(e);
        }
        if (own[0] != null && Objects.equals(text, own[0].resultText())) {
            return own[0];
        }
        // An invalid_result fault: the model gets the broken result in place of the tool's own.
        return ToolExecutionResult.builder().resultText(text).build();
    }

    private ToolExecutionResult injected(Exception e) {
        if (throwsFailures) {
            throw new ToolExecutionException(e);
        }
        String message = e.getMessage();
        return ToolExecutionResult.builder().isError(true)
                .resultText(message == null || message.isBlank() ? e.getClass().getName() : message).build();
    }

    /** The wrapped executor's error result, carried out of the gate so that the execution counts as failed. */
    private static final class OwnErrorResult extends RuntimeException {

        private static final long serialVersionUID = 1L;

        OwnErrorResult() {
            super(null, null, false, false);
        }
    }
}
