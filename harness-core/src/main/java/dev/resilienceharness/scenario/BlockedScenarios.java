package dev.resilienceharness.scenario;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.VolatilePaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Splits a config's scenarios around the cassette violations found before any run: a scenario with an op whose
 * cassette has a violation is blocked by that file and not run; every other scenario runs as usual, so one bad
 * cassette never empties the report.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class BlockedScenarios {

    /**
     * The split.
     *
     * @param runnable the config with only the scenarios whose cassettes are all sound
     * @param blocked  one line per blocked scenario, naming the op and the file it needs, in yaml order
     */
    public record Split(HarnessConfig runnable, List<String> blocked) {
        public Split {
            blocked = List.copyOf(blocked);
        }
    }

    private BlockedScenarios() {
    }

    /** The line for a scenario blocked by the cassette {@code file} of {@code op}. */
    public static String line(String scenario, String op, Path file) {
        return "Scenario '" + scenario + "' was not run: op '" + op + "' needs " + file
                + ", which has a cassette violation below";
    }

    /**
     * @param violations the cassette integrity violations; those that name an op block every op sending the same
     *                   request, and so every scenario with such an op
     */
    public static Split split(HarnessConfig config, List<Violation> violations) {
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        Map<String, String> fingerprints = new LinkedHashMap<>();
        for (Scenario s : config.scenarios()) {
            for (String op : s.ops()) {
                fingerprints.computeIfAbsent(op, o -> store.fingerprint(config.sharedRequest(o)));
            }
        }
        Set<String> bad = new HashSet<>();
        for (Violation v : violations) {
            String fp = v.op() == null ? null : fingerprints.get(v.op());
            if (fp != null) {
                bad.add(fp);
            }
        }
        if (bad.isEmpty()) {
            return new Split(config, List.of());
        }
        List<Scenario> runnable = new ArrayList<>();
        List<String> blocked = new ArrayList<>();
        for (Scenario s : config.scenarios()) {
            String blocking = null;
            for (String op : s.ops()) {
                if (bad.contains(fingerprints.get(op))) {
                    blocking = op;
                    break;
                }
            }
            if (blocking == null) {
                runnable.add(s);
            } else {
                blocked.add(line(s.name(), blocking, store.fileFor(fingerprints.get(blocking))));
            }
        }
        HarnessConfig kept = config.withScenarios(runnable);
        return new Split(kept, blocked);
    }
}
