package dev.resilienceharness.clients.springai;

import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.RateLimitException;
import com.openai.errors.SseException;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.policy.RetryAfterHandling;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.function.FunctionToolCallback;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A loop as a team writes it with Spring AI: a {@link ChatModel} per run, one {@code call(Prompt)} per attempt, the
 * SDK's exceptions mapped to outcomes (a 429 waits out one stated Retry-After, timeouts and 5xx back off, a tool call
 * whose arguments do not parse is asked for again), and every finished op journaled so that a restart resumes.
 */
public final class TeamLoop implements AgentLoop {

    /** The team's tool: its arguments are what the patch op must get right. */
    record PatchArgs(String file, String diff) {
    }

    static final ToolCallback APPLY_PATCH = FunctionToolCallback
            .builder("apply_patch", (PatchArgs p) -> "applied " + p.file())
            .description("Apply a unified diff to one file")
            .inputType(PatchArgs.class)
            .build();

    static final Map<String, String> PROMPTS = Map.of(
            "plan", "Plan the fix for the failing RangeTest",
            "patch", "Write the patch for Range.contains",
            "review", "Review the patch for Range.contains");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Function<LoopRun, ChatModel> models;
    private final Map<String, String> prompts;
    private final boolean streaming;
    private int concurrency = -1;

    /** The loop on a chat model with Spring AI's defaults. */
    public TeamLoop() {
        this(HarnessSpringAi::chatModel);
    }

    TeamLoop(Function<LoopRun, ChatModel> models) {
        this(models, PROMPTS);
    }

    TeamLoop(Function<LoopRun, ChatModel> models, Map<String, String> prompts) {
        this(models, prompts, false);
    }

    /** @param streaming whether each attempt streams ({@code stream(Prompt)}) rather than calls */
    TeamLoop(Function<LoopRun, ChatModel> models, Map<String, String> prompts, boolean streaming) {
        this.models = models;
        this.prompts = prompts;
        this.streaming = streaming;
    }

    /** The loop streaming every answer on the chat model {@code models} makes. */
    static TeamLoop streaming(Function<LoopRun, ChatModel> models) {
        return new TeamLoop(models, PROMPTS, true);
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        ChatModel model = models.apply(run);
        List<Outcome> outcomes = new ArrayList<>(run.journal().completed());
        Set<String> done = new HashSet<>();
        outcomes.forEach(o -> done.add(o.op()));
        concurrency = run.policy().concurrency();
        for (String op : run.ops()) {
            if (done.contains(op)) {
                continue;
            }
            Outcome outcome;
            try (var scope = run.op(op)) {
                outcome = attempt(run, model, op);
            }
            outcomes.add(outcome);
            if (outcome.status() == Status.STOPPED) {
                return outcomes;
            }
            run.journal().record(outcome);
        }
        return outcomes;
    }

    private Outcome attempt(LoopRun run, ChatModel model, String op) {
        Policy policy = run.policy();
        int attempts = 0;
        int transients = 0;
        int repairs = 0;
        boolean quotaRetried = false;
        while (true) {
            attempts++;
            Instant sent = run.clock().instant();
            try {
                AssistantMessage message = streaming ? streamed(model, prompt(op))
                        : model.call(prompt(op)).getResult().getOutput();
                long elapsedMs = Duration.between(sent, run.clock().instant()).toMillis();
                if (!argumentsParse(message)) {
                    if (repairs < policy.schema().repairAttempts()) {
                        repairs++;
                        continue;
                    }
                    return Outcome.degraded(op, "schema", attempts);
                }
                Outcome ok = Outcome.ok(op, value(message), attempts);
                if (elapsedMs > policy.slowFirstToken().threshold().toMillis()) {
                    concurrency = Math.max(1, concurrency / 2);
                    return ok.slow(elapsedMs, concurrency);
                }
                return ok;
            } catch (RateLimitException e) {
                String retryAfter = e.headers().values("retry-after").stream().findFirst().orElse(null);
                Optional<Duration> delay = seconds(retryAfter);
                if (!quotaRetried && policy.quota().withRetryAfter() == RetryAfterHandling.RETRY_ONCE
                        && delay.isPresent() && policy.mayHonour(delay.get()) && fits(run, delay.get())) {
                    quotaRetried = true;
                    run.sleeper().sleep(delay.get());
                    continue;
                }
                return Outcome.stopped(op, retryAfter, attempts);
            } catch (InternalServerException | OpenAIIoException | SseException e) {
                // A 5xx, a timeout, a dropped connection or an error event mid-stream: transient.
                transients++;
                Duration backoff = policy.backoff(transients);
                if (transients < policy.maxAttempts() && fits(run, backoff)) {
                    run.sleeper().sleep(backoff);
                    continue;
                }
                return Outcome.degraded(op, "timeout", attempts);
            }
        }
    }

    /** The streamed answer as one message: its text pieces joined, its tool calls gathered. */
    private static AssistantMessage streamed(ChatModel model, Prompt prompt) {
        List<ChatResponse> parts;
        try {
            parts = model.stream(prompt).collectList().block();
        } catch (RuntimeException e) {
            // The asynchronous client hands its failure over wrapped; the SDK's own exception, or the Error that
            // killed the process, is the cause.
            Throwable cause = e;
            while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
        StringBuilder text = new StringBuilder();
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        for (ChatResponse part : parts == null ? List.<ChatResponse>of() : parts) {
            if (part.getResult() == null) {
                continue;
            }
            AssistantMessage piece = part.getResult().getOutput();
            if (piece.getText() != null) {
                text.append(piece.getText());
            }
            calls.addAll(piece.getToolCalls());
        }
        return AssistantMessage.builder().content(text.toString()).toolCalls(calls).build();
    }

    private Prompt prompt(String op) {
        String text = prompts.getOrDefault(op, op);
        if (op.equals("patch")) {
            return new Prompt(text, OpenAiChatOptions.builder().toolCallbacks(APPLY_PATCH).build());
        }
        return new Prompt(text);
    }

    private static boolean fits(LoopRun run, Duration wait) {
        return run.waited().plus(wait).compareTo(run.policy().maxTotalWait()) <= 0;
    }

    private static boolean argumentsParse(AssistantMessage message) {
        for (AssistantMessage.ToolCall call : message.getToolCalls()) {
            try {
                JsonNode args = JSON.readTree(call.arguments());
                if (!args.isObject() || !args.path("file").isString() || !args.path("diff").isString()) {
                    return false;
                }
            } catch (JacksonException e) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode value(AssistantMessage message) {
        ObjectNode value = JSON.createObjectNode();
        value.put("text", message.getText());
        var calls = value.putArray("tool_calls");
        for (AssistantMessage.ToolCall call : message.getToolCalls()) {
            calls.addObject().put("name", call.name()).put("arguments", call.arguments());
        }
        return value;
    }

    private static Optional<Duration> seconds(String retryAfter) {
        if (retryAfter == null) {
            return Optional.empty();
        }
        try {
            double s = Double.parseDouble(retryAfter.trim());
            return s < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(Math.round(s * 1000)));
        } catch (NumberFormatException notSeconds) {
            return Optional.empty();
        }
    }
}
