package com.example.agent;

import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.model.chat.ChatModel;
import dev.resilienceharness.clients.langchain4j.HarnessLangChain4j;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;

public final class PlanningLoop implements AgentLoop {

    private static final Map<String, String> PROMPTS = Map.of("plan", "plan the fix", "review", "review the patch");

    @Override
    public List<Outcome> run(LoopRun run) {
        ChatModel model = HarnessLangChain4j.builder(run).modelName("gpt-4o-mini").maxRetries(0).build();
        List<Outcome> outcomes = new ArrayList<>(run.journal().completed());
        for (String op : run.ops()) {
            if (outcomes.stream().anyMatch(o -> o.op().equals(op))) {
                continue;                                         // finished before a restart
            }
            Outcome outcome = attempt(run, model, op);
            run.journal().record(outcome);
            outcomes.add(outcome);
            if (outcome.status() == Status.STOPPED) {
                break;
            }
        }
        return outcomes;
    }

    private static Outcome attempt(LoopRun run, ChatModel model, String op) {
        for (int attempts = 1; ; attempts++) {
            try (var scope = run.op(op)) {                         // this op's calls, whatever the SDK sends
                String text = model.chat(PROMPTS.get(op));
                return Outcome.ok(op, JsonNodeFactory.instance.textNode(text), attempts);
            } catch (RateLimitException e) {
                return Outcome.stopped(op, null, attempts);        // langchain4j never says how long to wait
            } catch (RetriableException e) {                      // 5xx, 408, timeouts
                if (attempts >= run.policy().maxAttempts()) {
                    return Outcome.degraded(op, "timeout", attempts);
                }
                run.sleeper().sleep(run.policy().backoff(attempts)); // virtual
            } catch (LangChain4jException e) {
                return Outcome.degraded(op, "error", attempts);
            }
        }
    }
}
