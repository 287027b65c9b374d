package dev.resilienceharness.clients.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn of three model rounds inside one op, as a test an adapter module runs with its SDK: extend this class with a
 * loop whose one op {@code resolve} asks "Where is order A-1042?" and runs the tools {@code lookupOrder(orderId)} and
 * {@code trackParcel(parcel)} until the model answers ({@link OrderTurn}), under {@code policy.max_rounds}. Recorded
 * through the adapter against a {@link ScriptedProvider}, replayed offline.
 *
 * @param <L> the team's loop
 */
public abstract class ToolTurnContract<L extends AgentLoop> {

    /** The key recording sends; it must reach the provider and never a cassette. */
    public static final String KEY = "sk-proj-recording0key0that0must0never0reach0disk";

    private static final String YAML = """
            version: 1
            cassettes: cassettes
            loop: %s
            policy:
              max_total_wait: 30s
              max_rounds: 3
            scenarios:
              - name: turn
                ops: [resolve]
                expect: {status: [ok]}
              - name: turn-in-two-rounds
                ops: [resolve]
                policy: {max_rounds: 2}
            """;

    @TempDir
    Path dir;

    private ScriptedProvider provider;
    private RehearsalProject project;

    private final ApiShape api;
    private final Function<OrderTurn.Tools, L> loops;

    /**
     * @param api the API the SDK speaks
     * @param loops a new loop of the team's on the given tools, as the SDK runs the turn
     */
    protected ToolTurnContract(ApiShape api, Function<OrderTurn.Tools, L> loops) {
        this.api = api;
        this.loops = loops;
    }

    private L newLoop() {
        return loops.apply(new OrderTurn.Tools());
    }

    @BeforeEach
    void start() throws Exception {
        provider = ScriptedProvider.answering(api, request -> OrderTurn.answer(api, request));
        project = RehearsalProject.write(dir, YAML.formatted(newLoop().getClass().getName()));
    }

    @AfterEach
    void stop() {
        provider.close();
    }

    private List<String> record(LoopFactory loops) throws Exception {
        return project.record("turn", loops, provider.live(KEY)).requests().stream()
                .map(r -> r.op() + " round " + r.round()).toList();
    }

    @Test
    void aThreeRoundTurnIsRecordedRoundByRoundAndReplaysOfflineAsOneOp() throws Exception {
        OrderTurn.Tools tools = new OrderTurn.Tools();
        L recorded = loops.apply(tools);
        assertEquals(List.of("resolve round 1", "resolve round 2", "resolve round 3"), record(() -> recorded));
        assertEquals(List.of("lookupOrder A-1042", "trackParcel TRK-77"), tools.ran());
        assertEquals(3, provider.requests().size());
        assertEquals(List.of(0, 1, 2),
                provider.requests().stream().map(r -> ScriptedProvider.toolResults(api, r)).toList(),
                "each round sent the tool results of the rounds before it");
        try (var files = Files.list(dir.resolve("cassettes"))) {
            assertEquals(3, files.count(), "one cassette per round");
        }

        L replaying = newLoop();
        ScenarioResult replayed = project.replay("turn", () -> replaying, 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), replayed.violations());
        assertEquals(3, replayed.trace().calls().size());
        assertEquals(List.of(Status.OK), replayed.trace().outcomes().stream().map(Outcome::status).toList());
        assertEquals(OrderTurn.FINAL_ANSWER, replayed.trace().outcomes().get(0).value().get("text").asString());
        assertEquals(3, replayed.callBudget(), "three rounds of one call each");
        assertEquals(3, provider.requests().size(), "the replay sent nothing");
    }

    @Test
    void theSameTurnUnderMaxRounds2FailsTheBudgetNamingRound3() throws Exception {
        record(this::newLoop);
        ScenarioResult replayed = project.replay("turn-in-two-rounds", this::newLoop, 1, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of("turn-in-two-rounds [budget] op 'resolve': round 3 of at most 2 (policy.max_rounds)"
                + " (bound 2 rounds, actual 3 rounds). Raise policy.max_rounds if the turn really needs more model"
                + " rounds; else stop the loop from asking the model again (cap its tool calls, or answer once the"
                + " tools have run)"), replayed.violations().stream().map(Violation::line).toList());
        assertEquals(3, provider.requests().size(), "the replay sent nothing");
    }
}
