package dev.resilienceharness.clients.tck;

import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The loop the contract runs on an adapter's client: one call per op (the streamed op streams), in the op's scope,
 * no retries of its own; what the SDK threw is handed to the contract, and the op degrades. The run's crash (an
 * {@link Error}) is not caught, so the runner restarts the loop, which skips the ops its journal holds.
 */
final class ContractLoop implements AgentLoop {

    private final Function<LoopRun, AdapterContract.Client> clients;
    private final Consumer<AdapterContract.Seen> seen;

    ContractLoop(Function<LoopRun, AdapterContract.Client> clients, Consumer<AdapterContract.Seen> seen) {
        this.clients = clients;
        this.seen = seen;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        AdapterContract.Client client = clients.apply(run);
        List<Outcome> outcomes = new ArrayList<>(run.journal().completed());
        Set<String> done = outcomes.stream().map(Outcome::op).collect(Collectors.toSet());
        for (String op : run.ops()) {
            if (done.contains(op)) {
                continue;
            }
            Outcome outcome;
            try (var scope = run.op(op)) {
                AdapterContract.Answer answer = AdapterContract.STREAMED.equals(op)
                        ? new AdapterContract.Answer(client.stream(AdapterContract.prompt(op)), List.of())
                        : client.ask(AdapterContract.prompt(op));
                seen.accept(new AdapterContract.Seen(op, answer, null));
                outcome = Outcome.ok(op, JsonNodeFactory.instance.stringNode(answer.text()), 1);
            } catch (RuntimeException e) {
                seen.accept(new AdapterContract.Seen(op, null, e));
                outcome = Outcome.degraded(op, "error", 1);
            }
            run.journal().record(outcome);
            outcomes.add(outcome);
        }
        return outcomes;
    }
}
