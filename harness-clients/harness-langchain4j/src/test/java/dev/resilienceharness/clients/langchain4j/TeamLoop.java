package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A loop as a team writes it with langchain4j: one {@code chat} call per op inside the op's scope, langchain4j's
 * exceptions mapped to outcomes by the policy table, a tool call's arguments checked before use, and each finished op
 * journaled so that a restart resumes.
 */
final class TeamLoop implements AgentLoop {

    /** What each op asks; {@code patch} offers a tool. */
    static final Map<String, String> PROMPTS = Map.of("plan", "plan the fix", "patch", "patch the bug", "review",
            "review the patch", "summary", "summarise");

    static final ToolSpecification APPLY_PATCH = ToolSpecification.builder()
            .name("apply_patch")
            .description("Apply a patch to a file")
            .parameters(JsonObjectSchema.builder().addStringProperty("file").addStringProperty("diff")
                    .required("file", "diff").build())
            .build();

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Function<LoopRun, ChatModel> models;
    private final Map<String, String> prompts;
    private final List<Throwable> seen;

    /**
     * @param models the model the team's code is given for a run
     * @param seen   where the loop notes every exception langchain4j threw at it
     */
    TeamLoop(Function<LoopRun, ChatModel> models, Map<String, String> prompts, List<Throwable> seen) {
        this.models = models;
        this.prompts = prompts;
        this.seen = seen;
    }

    TeamLoop(Function<LoopRun, ChatModel> models, List<Throwable> seen) {
        this(models, PROMPTS, seen);
    }

    static ChatRequest request(String prompt, String op) {
        ChatRequest.Builder b = ChatRequest.builder().messages(UserMessage.from(prompt));
        if (op.equals("patch")) {
            b.toolSpecifications(APPLY_PATCH);
        }
        return b.build();
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        ChatModel model = models.apply(run);
        List<Outcome> outcomes = new ArrayList<>(run.journal().completed());
        Set<String> done = new HashSet<>();
        outcomes.forEach(o -> done.add(o.op()));
        int concurrency = run.policy().concurrency();
        for (Outcome o : outcomes) {
            if (o.concurrency() != null) {
                concurrency = o.concurrency();
            }
        }
        for (String op : run.ops()) {
            if (done.contains(op)) {
                continue;
            }
            Outcome outcome = op(run, model, op, concurrency);
            if (outcome.concurrency() != null) {
                concurrency = outcome.concurrency();
            }
            run.journal().record(outcome);
            outcomes.add(outcome);
            if (outcome.status() == Status.STOPPED) {
                break;
            }
        }
        return outcomes;
    }

    private Outcome op(LoopRun run, ChatModel model, String op, int concurrency) {
        int attempts = 0;
        while (true) {
            attempts++;
            Instant start = run.clock().instant();
            try (var scope = run.op(op)) {
                ChatResponse response = model.chat(request(prompts.get(op), op));
                if (!toolCallsParse(response)) {
                    return Outcome.degraded(op, "schema", attempts);
                }
                long elapsed = Duration.between(start, run.clock().instant()).toMillis();
                Outcome ok = Outcome.ok(op, value(response), attempts);
                return elapsed > run.policy().slowFirstToken().threshold().toMillis()
                        ? ok.slow(elapsed, Math.max(1, concurrency / 2)) : ok;
            } catch (RateLimitException e) {
                seen.add(e);
                return Outcome.stopped(op, null, attempts);
            } catch (TimeoutException | InternalServerException e) {
                seen.add(e);
                if (attempts >= run.policy().maxAttempts()) {
                    return Outcome.degraded(op, "timeout", attempts);
                }
                run.sleeper().sleep(run.policy().backoff(attempts));
            } catch (LangChain4jException e) {
                seen.add(e);
                return Outcome.degraded(op, "error", attempts);
            }
        }
    }

    private static boolean toolCallsParse(ChatResponse response) {
        for (ToolExecutionRequest call : response.aiMessage().toolExecutionRequests()) {
            try {
                JsonNode args = JSON.readTree(call.arguments());
                if (!args.isObject() || !args.has("file") || !args.has("diff")) {
                    return false;
                }
            } catch (RuntimeException broken) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode value(ChatResponse response) {
        ObjectNode v = JsonNodeFactory.instance.objectNode();
        String text = response.aiMessage().text();
        if (text != null) {
            v.put("text", text);
        }
        for (ToolExecutionRequest call : response.aiMessage().toolExecutionRequests()) {
            v.put("tool", call.name());
            v.set("arguments", JSON.readTree(call.arguments()));
        }
        return v;
    }
}
