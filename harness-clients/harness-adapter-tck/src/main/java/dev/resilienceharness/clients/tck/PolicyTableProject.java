package dev.resilienceharness.clients.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * The project of a policy-table test, whatever the SDK: its {@code resilience.yaml}, and per op a cassette whose
 * request is what the SDK itself sends for the op (captured from a client answered by a stub) and whose response is
 * the op's answer; and the check of one scenario, which must never sleep for real.
 */
public final class PolicyTableProject {

    private PolicyTableProject() {
    }

    /**
     * Writes {@code yaml} and the ops' cassettes into {@code dir} and prepares the rehearsal of {@code loops};
     * {@code sdkCall} makes the op's call with a client of the SDK bound to the stub endpoint it is given.
     */
    public static Rehearsal write(Path dir, String yaml, List<String> ops, Function<String, String> answer,
            BiConsumer<AnsweringEndpoint, String> sdkCall, LoopFactory loops) throws Exception {
        Path file = dir.resolve("resilience.yaml");
        Files.createDirectories(dir.resolve("cassettes"));
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        HarnessConfig config = ConfigLoader.load(file);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        for (String op : ops) {
            AnsweringEndpoint stub = new AnsweringEndpoint(attempt -> answer.apply(op));
            sdkCall.accept(stub, op);
            HttpAttempt sent = stub.seen().get(0);
            ObjectNode request = ApiShape.request("/" + sent.path(), (ObjectNode) Json.readTree(sent.body()));
            store.write(request, (ObjectNode) Json.readTree(answer.apply(op)), null, op);
        }
        return Rehearsal.prepare(config, loops);
    }

    /** Checks the scenario of that name once under the run invariants; no run of it sleeps for real. */
    public static ScenarioResult check(Rehearsal rehearsal, String name) {
        ScenarioResult result = rehearsal.check(rehearsal.config().scenarios().stream()
                .filter(s -> s.name().equals(name)).findFirst().orElseThrow(), 1, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), result.trace().realSleeps(), name);
        return result;
    }
}
