package dev.resilienceharness.clients.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.ObjectMappers;
import com.anthropic.errors.AnthropicInvalidDataException;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.errors.RateLimitException;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.ToolUseBlock;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.policy.Policy;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A team's loop around {@link FixAgent}, written as a team would write it with anthropic-java: each step in an op
 * scope, the SDK's exceptions mapped to the degradation policy, the tool call's {@code input} checked against the
 * tool's {@code input_schema} before it is used, every finished step journaled and skipped after a restart.
 */
public final class FixLoop implements AgentLoop {

    private final Function<LoopRun, AnthropicClient> clients;
    private final String model;

    /** The loop as {@code loop:} names it: a client with the SDK's defaults. */
    public FixLoop() {
        this(HarnessAnthropic::client);
    }

    /** @param clients how the loop gets its client for a run: {@code HarnessAnthropic::client} or a builder */
    FixLoop(Function<LoopRun, AnthropicClient> clients) {
        this(clients, FixAgent.MODEL);
    }

    /** @param model the model as the client's backend names it */
    FixLoop(Function<LoopRun, AnthropicClient> clients, String model) {
        this.clients = clients;
        this.model = model;
    }

    /** The same loop on a client built with {@code maxRetries(0)}: its own policy is the only retry layer. */
    public static final class WithoutSdkRetries implements AgentLoop {

        private final FixLoop loop = new FixLoop(run -> HarnessAnthropic.builder(run).maxRetries(0).build());

        @Override
        public List<Outcome> run(LoopRun run) {
            return loop.run(run);
        }
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        FixAgent agent = new FixAgent(clients.apply(run), model);
        List<Outcome> outcomes = new ArrayList<>(run.journal().completed());
        Set<String> done = new HashSet<>();
        int concurrency = run.policy().concurrency();
        for (Outcome o : outcomes) {
            done.add(o.op());
            if (o.concurrency() != null) {
                concurrency = o.concurrency();
            }
        }
        for (String op : run.ops()) {
            if (done.contains(op)) {
                continue;
            }
            Outcome outcome;
            try (var scope = run.op(op)) {
                outcome = step(run, agent, op, concurrency);
            }
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

    private static Outcome step(LoopRun run, FixAgent agent, String op, int concurrency) {
        Policy policy = run.policy();
        int attempts = 0;
        int transients = 0;
        int repairs = 0;
        boolean quotaRetried = false;
        while (true) {
            attempts++;
            Instant start = run.now();
            try {
                Message message = agent.step(op);
                long elapsed = Duration.between(start, run.now()).toMillis();
                Optional<ToolUseBlock> call = message.content().stream().filter(ContentBlock::isToolUse)
                        .map(b -> b.toolUse().orElseThrow()).findFirst();
                JsonNode value;
                if (call.isPresent()) {
                    value = input(call.get());
                    if (!WriteFileInput.valid(value)) {
                        if (repairs < policy.schema().repairAttempts()) {
                            repairs++;
                            continue;
                        }
                        return Outcome.degraded(op, "schema", attempts);
                    }
                } else {
                    ObjectNode text = JsonNodeFactory.instance.objectNode();
                    message.content().stream().filter(ContentBlock::isText)
                            .forEach(b -> text.put("text", b.text().orElseThrow().text()));
                    value = text;
                }
                Outcome ok = Outcome.ok(op, value, attempts);
                if (elapsed > policy.slowFirstToken().threshold().toMillis()) {
                    return ok.slow(elapsed, Math.max(1, concurrency / 2));
                }
                return ok;
            } catch (RateLimitException e) {
                String retryAfter = e.headers().values("retry-after").stream().findFirst().orElse(null);
                Optional<Duration> delay = seconds(retryAfter);
                if (!quotaRetried && delay.isPresent() && policy.mayHonour(delay.get()) && fits(run, delay.get())) {
                    quotaRetried = true;
                    run.sleeper().sleep(delay.get());
                    continue;
                }
                return Outcome.stopped(op, retryAfter, attempts);
            } catch (AnthropicServiceException e) {
                if (e.statusCode() < 500) {
                    throw e;
                }
                transients++;
                if (transients < policy.maxAttempts() && fits(run, policy.backoff(transients))) {
                    run.sleeper().sleep(policy.backoff(transients));
                    continue;
                }
                return Outcome.degraded(op, "timeout", attempts);
            } catch (AnthropicIoException | AnthropicInvalidDataException e) {
                if (e instanceof AnthropicInvalidDataException && !readTimedOut(e)) {
                    throw e;
                }
                // No answer in time, or (the SDK's "Error reading response") a first token past the read timeout.
                transients++;
                if (transients < policy.maxAttempts() && fits(run, policy.backoff(transients))) {
                    run.sleeper().sleep(policy.backoff(transients));
                    continue;
                }
                return Outcome.degraded(op, "timeout", attempts);
            }
        }
    }

    private static boolean readTimedOut(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static boolean fits(LoopRun run, Duration wait) {
        return run.waited().plus(wait).compareTo(run.policy().maxTotalWait()) <= 0;
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

    /** The tool call's input as JSON, whatever shape the model gave it. */
    private static JsonNode input(ToolUseBlock call) {
        try {
            return Json.readTree(ObjectMappers.jsonMapper().writeValueAsString(call._input()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the tool call's input cannot be written as JSON", e);
        }
    }
}
