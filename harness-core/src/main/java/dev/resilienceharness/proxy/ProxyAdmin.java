package dev.resilienceharness.proxy;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.FaultAnswer;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.scenario.ScenarioResult;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The proxy's own paths, under {@value #PREFIX} on its loopback port: {@code POST /_harness/reset?scenario=NAME}
 * ends the current run and starts a fresh one of NAME's fault plan (no faults without {@code scenario}), and
 * answers with the run that ended, checked for call budget and waiting.
 */
final class ProxyAdmin {

    /** Where the proxy's own paths start. */
    static final String PREFIX = "/_harness/";

    /** What an admin request is answered, and how the request log names it. */
    record Answered(FaultAnswer answer, String label) {
    }

    private static final ApiShape ERRORS = ApiShape.CHAT_COMPLETIONS;

    private final HarnessConfig config;
    private final ProxyRuns runs;
    private final Mode mode;

    ProxyAdmin(HarnessConfig config, ProxyRuns runs, Mode mode) {
        this.config = config;
        this.runs = runs;
        this.mode = mode;
    }

    Answered answer(String method, String path, String rawQuery) {
        if (!path.equals(PREFIX + "reset")) {
            return new Answered(FaultAnswer.error(404, Map.of(), ERRORS.errorBody(404, "not_found",
                    ProxyMessages.ADMIN_PATHS, null)), "-");
        }
        if (!"POST".equals(method)) {
            return new Answered(FaultAnswer.error(405, Map.of("Allow", "POST"), ERRORS.errorBody(405,
                    "invalid_request_error", "use POST for " + path, null)), "-");
        }
        String name = query(rawQuery, "scenario");
        Scenario scenario = null;
        if (name != null) {
            if (mode != Mode.REPLAY) {
                return new Answered(FaultAnswer.error(409, Map.of(), ERRORS.errorBody(409, "invalid_request_error",
                        "a scenario's fault plan applies in replay mode only; this proxy is in " + mode.userName()
                                + " mode", null)), "-");
            }
            scenario = ProxyRuns.find(config, name);
            if (scenario == null) {
                return new Answered(FaultAnswer.error(404, Map.of(), ERRORS.errorBody(404, "unknown_scenario",
                        ProxyMessages.noScenario(name, config), null)), "-");
            }
        }
        ScenarioResult ended = runs.reset(scenario);
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("started", name == null ? ProxyRuns.UNPLANNED : name);
        if (ended == null) {
            body.putNull("ended");
        } else {
            body.set("ended", ScenarioReport.of(ended).toJson());
        }
        return new Answered(FaultAnswer.error(200, Map.of(), body),
                "reset to " + (name == null ? "no scenario" : "scenario " + name));
    }

    /** The decoded value of {@code key} in a query string, or {@code null} when it is absent or empty. */
    static String query(String rawQuery, String key) {
        if (rawQuery == null) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            if (k.equals(key)) {
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                return v.isEmpty() ? null : v;
            }
        }
        return null;
    }
}
