package dev.resilienceharness.clients.openai;

import com.openai.client.OpenAIClient;
import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.RateLimitException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Journal;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.QuotaExhausted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A team's loop written with openai-java, as a team would ship it: the policy table on top of the SDK's exceptions,
 * each op's outcome journaled. Only the client it is given differs between production and the harness.
 */
public class TriageLoop implements AgentLoop {

    /** How the client is built: production code would build it the same way with {@code OpenAIOkHttpClient}. */
    protected OpenAIClient client(LoopRun run) {
        return HarnessOpenAi.client(run);
    }

    /** What the agent asks for an op. */
    protected String prompt(String op) {
        return "Do the " + op + " step of the triage.";
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        OpenAIClient client = client(run);
        Map<String, Outcome> finished = new HashMap<>();
        int concurrency = run.policy().concurrency();
        for (Outcome o : run.journal().completed()) {
            finished.put(o.op(), o);
            if (o.concurrency() != null) {
                concurrency = o.concurrency();
            }
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            Outcome outcome = finished.get(op);
            if (outcome == null) {
                try (var scope = run.op(op)) {
                    outcome = attempt(run, client, op, concurrency);
                }
                run.journal().record(outcome);
            }
            if (outcome.concurrency() != null) {
                concurrency = outcome.concurrency();
            }
            outcomes.add(outcome);
            if (outcome.status() == Status.STOPPED) {
                break;
            }
        }
        return outcomes;
    }

    private Outcome attempt(LoopRun run, OpenAIClient client, String op, int concurrency) {
        Policy policy = run.policy();
        Journal.Progress resumed = run.journal().progress(op);
        int attempts = resumed.attempts();
        int transientFailures = resumed.transientFailures();
        boolean quotaRetried = resumed.quotaRetried();
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder()
                .model("gpt-4o-mini").addUserMessage(prompt(op)).build();
        while (true) {
            if (attempts > 0) {
                run.journal().checkpoint(op, new Journal.Progress(attempts, transientFailures, 0, quotaRetried));
            }
            attempts++;
            Instant start = run.now();
            try {
                ChatCompletion completion = client.chat().completions().create(params);
                ChatCompletionMessage message = completion.choices().get(0).message();
                if (!toolArgumentsParse(message)) {
                    return Outcome.degraded(op, "schema", attempts);
                }
                Outcome ok = Outcome.ok(op, JsonNodeFactory.instance.stringNode(message.content().orElse("")),
                        attempts);
                long elapsed = Duration.between(start, run.now()).toMillis();
                if (Duration.ofMillis(elapsed).compareTo(policy.slowFirstToken().threshold()) > 0) {
                    return ok.slow(elapsed, Math.max(1, concurrency / 2));
                }
                return ok;
            } catch (RateLimitException e) {
                List<String> header = e.headers().values("retry-after");
                String retryAfter = header.isEmpty() ? null : header.get(0);
                Optional<Duration> delay = new QuotaExhausted(retryAfter).delay(run.now());
                if (quotaRetried || delay.isEmpty() || !policy.mayHonour(delay.get())
                        || !fits(run, policy, delay.get())) {
                    return Outcome.stopped(op, retryAfter, attempts);
                }
                quotaRetried = true;
                run.journal().checkpoint(op, new Journal.Progress(attempts, transientFailures, 0, true));
                run.sleeper().sleep(delay.get());
            } catch (InternalServerException | OpenAIIoException e) {
                transientFailures++;
                Duration wait = policy.backoff(transientFailures);
                if (transientFailures >= policy.maxAttempts() || !fits(run, policy, wait)) {
                    return Outcome.degraded(op, "timeout", attempts);
                }
                run.sleeper().sleep(wait);
            }
        }
    }

    private static boolean toolArgumentsParse(ChatCompletionMessage message) {
        for (ChatCompletionMessageToolCall call : message.toolCalls().orElse(List.of())) {
            if (call.isFunction()) {
                try {
                    Json.readTree(call.asFunction().function().arguments());
                } catch (RuntimeException e) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean fits(LoopRun run, Policy policy, Duration wait) {
        return run.waited().plus(wait).compareTo(policy.maxTotalWait()) <= 0;
    }

    /** The same loop on a client built as the team should build it: no retries of the SDK's own. */
    public static class NoSdkRetries extends TriageLoop {
        @Override
        protected OpenAIClient client(LoopRun run) {
            return HarnessOpenAi.builder(run).maxRetries(0).build();
        }
    }
}
