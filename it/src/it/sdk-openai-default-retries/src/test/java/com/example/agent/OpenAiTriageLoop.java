package com.example.agent;

import com.openai.client.OpenAIClient;
import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.RateLimitException;
import dev.resilienceharness.clients.openai.HarnessOpenAi;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Journal;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.QuotaExhausted;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The triage agent's loop on an openai-java client left at the SDK's defaults: the SDK retries underneath the
 * loop's own policy.
 */
public final class OpenAiTriageLoop implements AgentLoop {

    /** The client the agent gets; production builds the same with {@code OpenAIOkHttpClient.builder()}. */
    private static OpenAIClient client(LoopRun run) {
        return HarnessOpenAi.client(run);                     // openai-java's defaults: two retries
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        TriageAgent agent = new TriageAgent(client(run));
        Map<String, Outcome> finished = new HashMap<>();
        for (Outcome o : run.journal().completed()) {
            finished.put(o.op(), o);                          // what a previous process finished
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            Outcome outcome = finished.get(op);
            if (outcome == null) {
                try (var scope = run.op(op)) {                // the SDK's calls in here count for this op
                    outcome = attempt(run, agent, op);
                }
                run.journal().record(outcome);
            }
            outcomes.add(outcome);
            if (outcome.status() == Status.STOPPED) {
                break;
            }
        }
        return outcomes;
    }

    private static Outcome attempt(LoopRun run, TriageAgent agent, String op) {
        Policy policy = run.policy();
        Journal.Progress resumed = run.journal().progress(op);
        int attempts = resumed.attempts();
        int transientFailures = resumed.transientFailures();
        boolean quotaRetried = resumed.quotaRetried();
        while (true) {
            if (attempts > 0) {
                run.journal().checkpoint(op, new Journal.Progress(attempts, transientFailures, 0, quotaRetried));
            }
            attempts++;
            try {
                return Outcome.ok(op, JsonNodeFactory.instance.stringNode(agent.step(op)), attempts);
            } catch (RateLimitException e) {
                List<String> header = e.headers().values("retry-after");
                String retryAfter = header.isEmpty() ? null : header.get(0);
                Optional<Duration> delay = new QuotaExhausted(retryAfter).delay(run.now());
                if (quotaRetried || delay.isEmpty() || !policy.mayHonour(delay.get()) || !fits(run, delay.get())) {
                    return Outcome.stopped(op, retryAfter, attempts);
                }
                quotaRetried = true;
                run.sleeper().sleep(delay.get());             // virtual: no real time passes
            } catch (InternalServerException | OpenAIIoException e) {
                transientFailures++;
                Duration wait = policy.backoff(transientFailures);
                if (transientFailures >= policy.maxAttempts() || !fits(run, wait)) {
                    return Outcome.degraded(op, "timeout", attempts);
                }
                run.sleeper().sleep(wait);
            }
        }
    }

    private static boolean fits(LoopRun run, Duration wait) {
        return run.waited().plus(wait).compareTo(run.policy().maxTotalWait()) <= 0;
    }
}
