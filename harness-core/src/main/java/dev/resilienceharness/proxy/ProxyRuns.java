package dev.resilienceharness.proxy;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.scenario.ScenarioResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The runs one proxy serves: the current one, which a reset ends and replaces with a fresh run of a named
 * scenario's plan, and the finished ones, each checked for call budget and waiting when it ends, written to
 * {@code report.json} when the proxy stops. A proxy started without a scenario serves {@value #UNPLANNED}: no
 * faults, the top-level policy. Thread-safe.
 */
final class ProxyRuns {

    /** The name of the run of a proxy without a scenario. */
    static final String UNPLANNED = "serve";

    private final HarnessConfig config;
    private final List<ScenarioResult> finished = new ArrayList<>();
    private ProxyRun current;

    ProxyRuns(HarnessConfig config, Scenario initial) {
        this.config = config;
        this.current = new ProxyRun(config, initial == null ? unplanned(config) : initial, System.nanoTime());
    }

    static Scenario unplanned(HarnessConfig config) {
        return new Scenario(UNPLANNED, List.of(), List.of(), Expectations.NONE, config.policy(), 0);
    }

    /** The scenario called {@code name}, or {@code null}. */
    static Scenario find(HarnessConfig config, String name) {
        for (Scenario s : config.scenarios()) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    synchronized ProxyRun current() {
        return current;
    }

    /**
     * Ends the current run and starts one of {@code scenario}'s plan ({@code null}: no faults).
     *
     * @return the run just ended, checked, or {@code null} when it saw no request
     */
    synchronized ScenarioResult reset(Scenario scenario) {
        ScenarioResult ended = end();
        current = new ProxyRun(config, scenario == null ? unplanned(config) : scenario, System.nanoTime());
        return ended;
    }

    private ScenarioResult end() {
        if (current.requests() == 0) {
            return null;
        }
        ScenarioResult r = current.result(config.budget());
        finished.add(r);
        return r;
    }

    /**
     * Ends the current run and writes every run that saw a request to {@code report.json} (and the HTML and JUnit
     * reports beside it) in {@code outputDir}.
     *
     * @return the runs written, in the order they ran; nothing is written when there are none
     */
    synchronized List<ScenarioResult> stop(Path outputDir) throws IOException {
        end();
        current = new ProxyRun(config, current.scenario(), System.nanoTime());
        List<ScenarioResult> runs = List.copyOf(finished);
        if (!runs.isEmpty() && outputDir != null) {
            RunReport.Builder report = RunReport.builder();
            for (ScenarioResult r : runs) {
                report.scenario(ScenarioReport.of(r));
            }
            ReportWriter.writeAll(report.build(), ProxyRun.checked(config), outputDir);
        }
        return runs;
    }
}
