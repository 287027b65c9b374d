package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.run.RunLog;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Which scenarios a goal works on: every goal but {@code serve} leaves out the scenarios without ops (fault plans
 * written for the proxy only), and a config left without scenarios is a folder of cassettes, which the scenario
 * goals pass with a warning and the cassette goals check without looking for orphans.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ScenarioScope {

    private ScenarioScope() {
    }

    /** The warning of a scenario goal that has nothing to run. */
    public static String noScenarios(HarnessConfig config, String goal) {
        return config.file().getFileName() + " declares no scenarios with ops: resilience:" + goal + " has nothing"
                + " to rehearse. Add scenarios (see the README) to check a loop";
    }

    /** The line a cassette goal logs when there are no scenarios to tell used cassettes from orphans. */
    public static String cassettesOnTheirOwn(HarnessConfig config) {
        return config.file().getFileName() + " declares no scenarios with ops: the cassettes are checked on their"
                + " own, without looking for orphans";
    }

    /** {@code config} without its serve-only scenarios, each named once in an info line. */
    public static HarnessConfig forGoal(HarnessConfig config, String goal, RunLog log) {
        List<Scenario> kept = new ArrayList<>();
        for (Scenario s : config.scenarios()) {
            if (s.ops().isEmpty()) {
                log.info("Scenario '" + s.name() + "' has no ops: it is a fault plan for resilience:serve, and"
                        + " resilience:" + goal + " leaves it out");
            } else {
                kept.add(s);
            }
        }
        if (kept.size() == config.scenarios().size()) {
            return config;
        }
        return config.withScenarios(kept);
    }

    /** Whether orphans can be told: only when some scenario uses cassettes. */
    public static boolean looksForOrphans(HarnessConfig config) {
        return !config.scenarios().isEmpty();
    }

    /** The integrity warnings without the orphan ones, for a config without scenarios. */
    public static List<String> withoutOrphans(List<String> warnings) {
        return warnings.stream().filter(w -> !w.contains(": orphan cassette: ")).toList();
    }
}
