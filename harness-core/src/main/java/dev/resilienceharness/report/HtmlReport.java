package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * {@code report.html}: one self-contained page (inline CSS, SVG and script, no network) that shows at a glance
 * what broke and why. Scenarios are listed failures first, each folded in a {@code <details>}; its timeline
 * is drawn from one embedded JSON block only when it is opened, so a thousand scenarios still open at once.
 * {@code #all} (or {@code ?expand=all}) in the URL opens and draws every scenario.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class HtmlReport {

    /** Failing scenarios start unfolded when there are fewer than this many. */
    static final int OPEN_FAILURES_BELOW = 20;

    /** Violation lines listed under the verdict before "and N more". */
    static final int GLANCE_LINES = 12;

    /** Mark colour per fault kind; {@code _other} for kinds this page does not know. */
    static final Map<String, String> FAULT_COLORS = faultColors();

    /** Tool mark colour per tool fault kind; {@code _other} for kinds this page does not know. */
    static final Map<String, String> TOOL_FAULT_COLORS = toolFaultColors();
    /** Mark colour per MCP-only fault kind, for MCP tool squares and MCP request pills (docs mcp.md). */
    static final Map<String, String> MCP_FAULT_COLORS = mcpFaultColors();

    private static final Map<Invariant, String> DESCRIPTIONS = descriptions();

    private static final String CSS = asset("report.css");

    private static final String SCRIPT = asset("report.js");

    private static final Pattern DIFF = Pattern.compile("run (\\d+) differs from run 1 at (\\S+): (.*) vs (.*)",
            Pattern.DOTALL);

    private HtmlReport() {
    }

    /** The page's stylesheet or script, kept beside this class as a resource so it can be edited as what it is. */
    private static String asset(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing from the harness-core jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> faultColors() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("none", "#34a853");
        m.put("timeout", "#f29900");
        m.put("server_error", "#e8710a");
        m.put("quota", "#9334e6");
        m.put("bad_tool_call", "#d01884");
        m.put("slow_first_token", "#1a73e8");
        m.put("crash", "#202124");
        m.put("_other", "#9aa0a6");
        return java.util.Collections.unmodifiableMap(m);
    }

    private static Map<String, String> toolFaultColors() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("none", "#34a853");
        m.put("error", "#c5221f");
        m.put("timeout", "#f29900");
        m.put("slow", "#1a73e8");
        m.put("invalid_result", "#d01884");
        m.put("timeout_after_commit", "#202124");
        m.put("_other", "#9aa0a6");
        return java.util.Collections.unmodifiableMap(m);
    }

    private static Map<String, String> mcpFaultColors() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("protocol_error", "#a50e0e");
        m.put("hang", "#b06000");
        m.put("session_expired", "#9334e6");
        m.put("server_exit", "#5f6368");
        m.put("rate_limited", "#e37400");
        m.put("tools_changed", "#12b5cb");
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The colours the page's script knows: the tool faults', then the MCP faults'. */
    private static Map<String, String> markColors() {
        Map<String, String> m = new LinkedHashMap<>(TOOL_FAULT_COLORS);
        m.putAll(MCP_FAULT_COLORS);
        return m;
    }

    private static Map<Invariant, String> descriptions() {
        Map<Invariant, String> m = new EnumMap<>(Invariant.class);
        m.put(Invariant.BUDGET, "Call budget: no op calls more than its retries, repairs and restarts allow;"
                + " no call after a stop");
        m.put(Invariant.DETERMINISM, "Replay determinism: repeated runs give identical outcome lists");
        m.put(Invariant.PARTIAL_WORK, "Partial work survival: a stop or a restart keeps every finished op, in"
                + " order");
        m.put(Invariant.BOUNDED_WAIT, "Bounded waiting: total virtual waiting stays within max_total_wait");
        m.put(Invariant.EXPECTATIONS, "Expectations: the outcome list matches the scenario's expect lists");
        m.put(Invariant.CASSETTES, "Cassette integrity: files parse, names are fingerprints, no volatile field,"
                + " none missing");
        m.put(Invariant.SECRETS, "Redaction: no secret in any cassette");
        m.put(Invariant.SIDE_EFFECTS, "Side effects: a side-effecting tool takes effect at most once per logical"
                + " call");
        return m;
    }

    /** The page, with every invariant counted as checked. */
    public static String toHtml(RunReport report) {
        return toHtml(report, EnumSet.allOf(Invariant.class));
    }

    /** The page; invariants outside {@code checked} show as not checked unless something violated them. */
    public static String toHtml(RunReport report, Set<Invariant> checked) {
        return toHtml(report, checked, "");
    }

    /** The page with {@code more} sections (already HTML, such as {@link DriftSection}) after the others. */
    public static String toHtml(RunReport report, Set<Invariant> checked, String more) {
        List<ScenarioReport> sorted = new ArrayList<>(report.scenarios());
        sorted.sort(Comparator.comparing((ScenarioReport s) -> s.violations().isEmpty())
                .thenComparing(ScenarioReport::name));
        StringBuilder h = new StringBuilder(4096 + sorted.size() * 2048);
        head(report, h);
        header(report, sorted, h);
        h.append("<main>");
        summary(report, checked, h);
        scenarios(sorted, h);
        cassettes(report.cassettes(), checked, h);
        secrets(report.secrets(), checked, h);
        exploration(report.exploration(), h);
        h.append(more);
        h.append("</main>\n<footer>Times are on the virtual clock (no real time passed). report.json and"
                + " junit/TEST-resilience.xml are beside this file.</footer>\n");
        h.append("<script>\n").append(SCRIPT.replace("/*COLORS*/{}", colorsJson(FAULT_COLORS))
                .replace("/*TOOL_COLORS*/{}", colorsJson(markColors()))).append("</script>\n");
        h.append("</body>\n</html>\n");
        return h.toString();
    }

    private static void head(RunReport report, StringBuilder h) {
        int n = report.violationCount();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                // Nothing on this page may reach the network, whatever a scenario name or message contains.
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
                        + " style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n")
                .append("<link rel=\"icon\" href=\"data:,\">\n")
                .append("<title>").append(n == 0 ? "PASS" : "FAIL (" + n + ")")
                .append(" \u00b7 Resilience report</title>\n<style>\n").append(CSS)
                .append("</style>\n</head>\n<body>\n");
    }

    private static void header(RunReport report, List<ScenarioReport> sorted, StringBuilder h) {
        int n = report.violationCount();
        List<ScenarioReport> failing = report.failingScenarios();
        long calls = report.scenarios().stream().mapToLong(ScenarioReport::calls).sum();
        double waited = report.scenarios().stream().mapToDouble(ScenarioReport::totalWaitMs).sum();
        h.append("<header class=\"").append(n == 0 ? "pass" : "fail").append("\">")
                .append("<h1>Resilience Harness report</h1><p class=\"verdict\">")
                .append(n == 0 ? "PASS" : "FAIL").append("</p><p class=\"verdict-line\">");
        if (n == 0) {
            h.append("No invariant broken in ").append(plural(report.scenarios().size(), "scenario")).append('.');
        } else {
            h.append(plural(n, "violation")).append(": ");
            String sep = "";
            for (Map.Entry<Invariant, Integer> e : report.violationsByInvariant().entrySet()) {
                if (e.getValue() > 0) {
                    h.append(sep).append(e.getKey().id()).append(' ').append(e.getValue());
                    sep = ", ";
                }
            }
            h.append(" \u2014 ").append(failing.size()).append(" of ")
                    .append(plural(report.scenarios().size(), "scenario")).append(" failing.");
        }
        h.append("</p><p class=\"totals\">").append(plural(calls, "call")).append(" \u00b7 ").append(duration(waited))
                .append(" virtual waiting \u00b7 ").append(plural(report.cassettes().checked(), "cassette"))
                .append(" checked \u00b7 ").append(plural(report.secrets().files(), "file")).append(" scanned")
                .append("</p>");
        if (n > 0) {
            glance(report, sorted, h);
        }
        h.append("</header>\n");
    }

    /** The first violation lines, each linking to where it is shown. */
    private static void glance(RunReport report, List<ScenarioReport> sorted, StringBuilder h) {
        h.append("<ul class=\"glance\">");
        int listed = 0;
        int covered = 0;
        for (int i = 0; i < sorted.size() && listed < GLANCE_LINES; i++) {
            for (Violation v : sorted.get(i).violations()) {
                if (listed == GLANCE_LINES) {
                    break;
                }
                glanceLine("s-" + i, v, h);
                listed++;
                covered++;
            }
        }
        for (Violation v : report.cassettes().violations()) {
            if (listed == GLANCE_LINES) {
                break;
            }
            glanceLine("cassettes", v, h);
            listed++;
            covered++;
        }
        int findings = report.secrets().findings().size();
        if (findings > 0 && listed < GLANCE_LINES) {
            h.append("<li><a href=\"#secrets\">").append(plural(findings, "secret finding")).append("</a> ");
            chip(Invariant.SECRETS, h);
            h.append(" masked values in the table below</li>");
            covered += findings;
        }
        if (covered < report.violationCount()) {
            h.append("<li class=\"more\">\u2026 and ").append(report.violationCount() - covered)
                    .append(" more below</li>");
        }
        h.append("</ul>");
    }

    private static void glanceLine(String anchor, Violation v, StringBuilder h) {
        h.append("<li><a href=\"#").append(anchor).append("\">").append(esc(v.subject())).append("</a> ");
        chip(v.invariant(), h);
        h.append(' ').append(esc(shortLine(v))).append("</li>");
    }

    private static String shortLine(Violation v) {
        StringBuilder sb = new StringBuilder();
        if (v.op() != null) {
            sb.append("op '").append(v.op()).append("': ");
        }
        sb.append(v.message());
        if (v.bound() != null && v.actual() != null) {
            sb.append(" (bound ").append(v.bound()).append(", actual ").append(v.actual()).append(')');
        } else if (v.bound() != null) {
            sb.append(" (bound ").append(v.bound()).append(')');
        } else if (v.actual() != null) {
            sb.append(" (actual ").append(v.actual()).append(')');
        }
        return sb.toString();
    }

    private static void summary(RunReport report, Set<Invariant> checked, StringBuilder h) {
        Map<Invariant, Integer> counts = report.violationsByInvariant();
        Map<Invariant, Integer> scenariosHit = new EnumMap<>(Invariant.class);
        for (ScenarioReport s : report.scenarios()) {
            s.violations().stream().map(Violation::invariant).distinct()
                    .forEach(i -> scenariosHit.merge(i, 1, Integer::sum));
        }
        h.append("<section id=\"summary\"><h2>Invariants</h2><table class=\"summary\"><thead><tr><th>Invariant</th>"
                + "<th>What it checks</th><th>Result</th><th class=\"num\">Violations</th>"
                + "<th class=\"num\">Scenarios</th></tr></thead><tbody>");
        for (Invariant i : Invariant.values()) {
            int count = counts.get(i);
            boolean wasChecked = checked.contains(i) || count > 0;
            if (i == Invariant.SIDE_EFFECTS && !wasChecked) {
                // Not "not checked" on every page: a project that declares no tools has nothing it could check.
                continue;
            }
            String state = !wasChecked ? "skip" : count == 0 ? "pass" : "fail";
            h.append("<tr class=\"").append(state).append("\"><td>");
            if (i == Invariant.SECRETS || (i == Invariant.CASSETTES && !scenariosHit.containsKey(i))) {
                h.append("<a href=\"#").append(i == Invariant.SECRETS ? "secrets" : "cassettes").append("\">")
                        .append(i.id()).append("</a>");
            } else {
                h.append("<button class=\"link\" data-filter=\"").append(i.id()).append("\">").append(i.id())
                        .append("</button>");
            }
            h.append("</td><td>").append(esc(DESCRIPTIONS.get(i))).append("</td><td><span class=\"st ")
                    .append(state).append("\">").append(state.equals("skip") ? "not checked" : state.toUpperCase())
                    .append("</span></td><td class=\"num\">").append(wasChecked ? String.valueOf(count) : "\u2013")
                    .append("</td><td class=\"num\">");
            if (i == Invariant.CASSETTES && !scenariosHit.containsKey(i) || i == Invariant.SECRETS) {
                h.append("\u2013");
            } else {
                h.append(scenariosHit.getOrDefault(i, 0));
            }
            h.append("</td></tr>");
        }
        h.append("</tbody></table></section>\n");
    }

    private static void scenarios(List<ScenarioReport> sorted, StringBuilder h) {
        long failing = sorted.stream().filter(s -> !s.violations().isEmpty()).count();
        Map<Invariant, Integer> byInvariant = new EnumMap<>(Invariant.class);
        for (ScenarioReport s : sorted) {
            s.violations().stream().map(Violation::invariant).distinct()
                    .forEach(i -> byInvariant.merge(i, 1, Integer::sum));
        }
        h.append("<section id=\"scenarios\"><h2>Scenarios</h2><div class=\"toolbar\">")
                .append("<input id=\"q\" type=\"search\" placeholder=\"Filter by name\" aria-label=\"Filter"
                        + " scenarios by name\" autocomplete=\"off\">")
                .append("<span class=\"filters\" role=\"group\" aria-label=\"Show\">")
                .append("<button class=\"on\" data-filter=\"all\">All ").append(sorted.size()).append("</button>")
                .append("<button data-filter=\"failing\">Failing ").append(failing).append("</button>");
        byInvariant.forEach((i, n) -> h.append("<button data-filter=\"").append(i.id()).append("\">")
                .append(i.id()).append(' ').append(n).append("</button>"));
        h.append("</span><span class=\"filters\"><button id=\"expand\">Expand shown</button>"
                + "<button id=\"collapse\">Collapse all</button></span><span id=\"shown\" class=\"muted\">")
                .append(sorted.size()).append(" shown</span></div>");
        legend(sorted.stream().anyMatch(s -> !s.timeline().tools().isEmpty()), h);
        mcpLegend(sorted.stream().anyMatch(s -> !s.timeline().mcp().isEmpty()), h);
        h.append("<noscript><p class=\"muted\">Timelines and filters need JavaScript; everything else is"
                + " shown without it.</p></noscript><div id=\"list\">\n");
        boolean openFailures = failing < OPEN_FAILURES_BELOW;
        for (int i = 0; i < sorted.size(); i++) {
            scenario(sorted.get(i), i, openFailures, h);
        }
        if (sorted.isEmpty()) {
            h.append("<p class=\"muted\">No scenario was run.</p>");
        }
        h.append("</div></section>\n");
        // One data block for all timelines: a thousand script elements would slow the parser down.
        h.append("<script type=\"application/json\" id=\"timelines\">[");
        for (int i = 0; i < sorted.size(); i++) {
            h.append(i == 0 ? "" : ",\n").append(TimelineData.forScript(sorted.get(i)));
        }
        h.append("]</script>\n");
    }

    private static void mcpLegend(boolean mcp, StringBuilder h) {
        if (!mcp) {
            return;
        }
        h.append("<div class=\"legend mcp\"><span class=\"muted\">MCP fault met (an MCP tool's square, another"
                + " MCP request's pill):</span>");
        MCP_FAULT_COLORS.forEach((fault, color) -> h.append("<span><svg width=\"18\" height=\"12\""
                + " aria-hidden=\"true\"><rect x=\"0.5\" y=\"1\" width=\"17\" height=\"10\" rx=\"5\" fill=\"")
                .append(color).append("\"/></svg>").append(fault).append("</span>"));
        h.append("</div>");
    }

    private static void legend(boolean tools, StringBuilder h) {
        h.append("<div class=\"legend\"><span class=\"muted\">Call colour = fault met:</span>");
        FAULT_COLORS.forEach((fault, color) -> {
            if (!fault.startsWith("_")) {
                h.append("<span><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><circle cx=\"6\" cy=\"6\""
                        + " r=\"5.5\" fill=\"").append(color).append("\"/></svg>").append(fault).append("</span>");
            }
        });
        h.append("<span><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><circle cx=\"6\" cy=\"6\" r=\"5.5\""
                + " fill=\"#9aa0a6\"/><path d=\"M3.5 3.5l5 5m0-5l-5 5\" stroke=\"#fff\" stroke-width=\"1.8\"/>"
                + "</svg>call failed</span><span><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect x=\"2\""
                + " y=\"2\" width=\"8\" height=\"8\" transform=\"rotate(45 6 6)\" fill=\"#9aa0a6\"/></svg>repair"
                + " call</span><span><span class=\"sw wait\"></span>wait</span><span><span class=\"sw restart\">"
                + "</span>restart</span><span><svg width=\"16\" height=\"16\" aria-hidden=\"true\"><circle"
                + " cx=\"8\" cy=\"8\" r=\"6.5\" fill=\"none\" stroke=\"#202124\" stroke-dasharray=\"2 2\"/></svg>"
                + "an SDK's own retry</span></div><div class=\"legend\"><span class=\"muted\">Outcome per op:</span>"
                + "<span><i class=\"sq o-ok\"></i>ok</span>"
                + "<span><i class=\"sq o-degraded\"></i>degraded</span><span><i class=\"sq o-stopped\"></i>stopped"
                + "</span></div>");
        if (tools) {
            h.append("<div class=\"legend tools\"><span class=\"muted\">Tool execution (square) colour = tool fault"
                    + " met:</span>");
            TOOL_FAULT_COLORS.forEach((fault, color) -> {
                if (!fault.startsWith("_")) {
                    h.append("<span><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect x=\"0.5\""
                            + " y=\"0.5\" width=\"11\" height=\"11\" rx=\"2\" fill=\"").append(color)
                            .append("\"/></svg>").append(fault).append("</span>");
                }
            });
            h.append("<span><svg width=\"16\" height=\"16\" aria-hidden=\"true\"><rect x=\"2\" y=\"2\""
                    + " width=\"12\" height=\"12\" rx=\"2\" fill=\"#9aa0a6\"/><rect x=\"0.75\" y=\"0.75\""
                    + " width=\"14.5\" height=\"14.5\" rx=\"3\" fill=\"none\" stroke=\"#202124\""
                    + " stroke-width=\"1.5\"/></svg>failed for its caller, took effect all the same</span></div>");
        }
    }

    private static void scenario(ScenarioReport s, int index, boolean openFailures, StringBuilder h) {
        boolean fails = !s.violations().isEmpty();
        Set<Invariant> hit = EnumSet.noneOf(Invariant.class);
        s.violations().forEach(v -> hit.add(v.invariant()));
        h.append("<details class=\"scn ").append(fails ? "fail" : "pass").append("\" id=\"s-").append(index)
                .append("\" data-name=\"").append(esc(s.name())).append("\" data-inv=\"");
        String sep = "";
        for (Invariant i : hit) {
            h.append(sep).append(i.id());
            sep = " ";
        }
        h.append('"').append(fails && openFailures ? " open" : "").append("><summary>")
                .append("<span class=\"st ").append(fails ? "fail\">FAIL" : "pass\">PASS").append("</span>")
                .append("<span class=\"nm\">").append(esc(s.name())).append("</span><span class=\"ocs\">");
        for (JsonNode o : s.outcomes()) {
            String status = o.path("status").asString("");
            h.append("<i class=\"o-").append(esc(status)).append("\" title=\"").append(esc(o.path("op").asString("")))
                    .append(": ").append(esc(status)).append("\"></i>");
        }
        h.append("</span><span class=\"kv").append(s.calls() > s.callBudget() ? " over" : "")
                .append("\" title=\"calls made / call budget\">calls ")
                .append(s.calls()).append(" / ").append(s.callBudget()).append("</span><span class=\"kv")
                .append(s.totalWaitMs() > s.waitBoundMs() ? " over" : "")
                .append("\" title=\"virtual waiting / max_total_wait\">wait ")
                .append(duration(s.totalWaitMs())).append(" / ").append(duration(s.waitBoundMs())).append("</span>");
        for (Invariant i : hit) {
            chip(i, h);
        }
        h.append("</summary><div class=\"body\"><div class=\"facts\">");
        fact("Calls against budget", s.calls(), s.callBudget(), s.calls() + " of " + s.callBudget() + " allowed", h);
        fact("Waiting against bound", s.totalWaitMs(), s.waitBoundMs(),
                duration(s.totalWaitMs()) + " of " + duration(s.waitBoundMs()), h);
        if (s.spend() != null) {
            tokens(s.spend(), h);
        }
        h.append("</div><div class=\"tl\" data-i=\"").append(index).append("\"></div>");
        streams(s, h);
        tools(s, h);
        mcp(s, h);
        outcomes(s, h);
        if (fails) {
            h.append("<h4>Violations</h4>");
            for (Violation v : s.violations()) {
                violation(v, h);
            }
        }
        h.append("</div></details>\n");
    }

    /** Tokens against the scenario's token budget, with their cost and the calls the provider limits refused. */
    private static void tokens(dev.resilienceharness.invariant.TokenSpend spend, StringBuilder h) {
        String extra = (spend.cost() == null ? "" : "; cost " + spend.cost().toPlainString()
                + (spend.unpricedTokens() > 0 ? " (" + spend.unpricedTokens() + " tokens unpriced)" : ""))
                + (spend.refused() > 0 ? "; " + spend.refused() + " calls refused by provider_limits" : "");
        if (spend.tokenBudget() != null) {
            fact("Tokens against budget", spend.tokens(), spend.tokenBudget(), spend.tokens() + " of "
                    + spend.tokenBudget() + " allowed" + extra, h);
        } else {
            h.append("<div class=\"fact\"><span class=\"lbl\">Tokens</span><span>").append(esc(spend.tokens()
                    + " spent" + extra)).append("</span></div>");
        }
    }

    private static void fact(String label, double actual, double bound, String text, StringBuilder h) {
        double pct = bound <= 0 ? (actual > 0 ? 100 : 0) : Math.min(100, actual * 100 / bound);
        h.append("<div class=\"fact").append(actual > bound ? " over" : "").append("\"><span class=\"lbl\">")
                .append(label).append("</span><span class=\"bar\"><span style=\"width:")
                .append(BigDecimal.valueOf(pct).setScale(1, RoundingMode.HALF_UP).toPlainString())
                .append("%\"></span></span><span>").append(esc(text)).append("</span></div>");
    }

    /** Each streamed answer in words, under the timeline: first event, events, and where it was cut or stalled. */
    private static void streams(ScenarioReport s, StringBuilder h) {
        if (s.timeline().streams().isEmpty()) {
            return;
        }
        h.append("<h4>Streams</h4><ul class=\"streams\">");
        for (ScenarioReport.Stream st : s.timeline().streams()) {
            ScenarioReport.Call call = st.call() < s.timeline().calls().size() ? s.timeline().calls().get(st.call())
                    : null;
            h.append("<li class=\"stream-").append(esc(st.end())).append("\">call ").append(st.call() + 1);
            if (call != null) {
                h.append(" (<code>").append(esc(call.op())).append("</code>, ").append(esc(st.fault())).append(")");
            }
            h.append(": ").append(esc(st.summary())).append("</li>");
        }
        h.append("</ul>");
    }

    /** Each tool execution in a table under the timeline, so it reads without the picture. */
    private static void tools(ScenarioReport s, StringBuilder h) {
        if (s.timeline().tools().isEmpty()) {
            return;
        }
        h.append("<h4>Tool executions</h4><table class=\"tools\"><thead><tr><th class=\"num\">#</th><th>tool</th>"
                + "<th>op</th><th class=\"num\">round</th><th>layer</th><th>fault</th><th>result</th>"
                + "<th>committed</th><th class=\"num\">at</th></tr></thead><tbody>");
        int n = 0;
        for (ScenarioReport.Tool t : s.timeline().tools()) {
            h.append("<tr><td class=\"num\">").append(++n).append("</td><td><code>").append(esc(t.name()))
                    .append("</code>").append(t.server() == null ? "" : " <span class=\"muted\">on " + esc(t.server())
                            + "</span>").append("</td><td><code>").append(esc(t.op())).append("</code></td><td class=\"num\">")
                    .append(t.round()).append("</td><td>").append(esc(t.layer())).append("</td><td>")
                    .append(esc(t.fault())).append("</td><td>").append(esc(t.result())).append("</td><td>")
                    .append(t.committed() ? "yes" : "no").append("</td><td class=\"num\">t=")
                    .append(esc(duration(t.atMs()))).append("</td></tr>");
        }
        h.append("</tbody></table>");
    }

    /** Each MCP message in a table under the tools, so it reads without the picture. */
    private static void mcp(ScenarioReport s, StringBuilder h) {
        if (s.timeline().mcp().isEmpty()) {
            return;
        }
        h.append("<h4>MCP messages</h4><table class=\"mcp\"><thead><tr><th class=\"num\">#</th><th>server</th>"
                + "<th>method</th><th>op</th><th>client</th><th>fault</th><th>outcome</th><th>committed</th>"
                + "<th class=\"num\">at</th><th>handed to the loop as</th></tr></thead><tbody>");
        int n = 0;
        for (ScenarioReport.Mcp m : s.timeline().mcp()) {
            h.append("<tr><td class=\"num\">").append(++n).append("</td><td><code>").append(esc(m.server()))
                    .append("</code></td><td><code>").append(esc(m.method())).append("</code>")
                    .append(m.tool() == null ? "" : " <code>" + esc(m.tool()) + "</code>").append("</td><td><code>")
                    .append(esc(m.op())).append("</code></td><td>").append(esc(m.layer())).append("</td><td>")
                    .append(esc(m.fault())).append("</td><td>").append(esc(m.outcome())).append("</td><td>")
                    .append(m.tool() == null ? "" : m.committed() ? "yes" : "no").append("</td><td class=\"num\">t=")
                    .append(esc(duration(m.atMs()))).append("</td><td>")
                    .append(m.answeredAsText() == null ? "" : "<q>" + esc(m.answeredAsText()) + "</q>")
                    .append("</td></tr>");
        }
        h.append("</tbody></table>");
    }

    private static void outcomes(ScenarioReport s, StringBuilder h) {
        h.append("<h4>Outcomes</h4>");
        if (s.outcomes().isEmpty()) {
            h.append("<p class=\"muted\">The run returned no outcomes.</p>");
            return;
        }
        h.append("<table class=\"outcomes\"><thead><tr><th class=\"num\">#</th><th>op</th><th>status</th>"
                + "<th>reason</th><th class=\"num\">attempts</th><th>details</th></tr></thead><tbody>");
        int n = 0;
        for (JsonNode o : s.outcomes()) {
            String status = o.path("status").asString("");
            h.append("<tr><td class=\"num\">").append(++n).append("</td><td><code>")
                    .append(esc(o.path("op").asString(""))).append("</code></td><td><span class=\"badge o-")
                    .append(esc(status)).append("\">").append(esc(status)).append("</span></td><td>")
                    .append(esc(o.path("reason").isString() ? o.get("reason").asString() : "")).append("</td>")
                    .append("<td class=\"num\">").append(o.path("attempts").asInt(0)).append("</td><td>");
            List<String> details = new ArrayList<>();
            if (o.has("retry_after")) {
                JsonNode retryAfter = o.get("retry_after");
                details.add("retry_after " + (retryAfter.isNull() ? "none" : retryAfter.asString()));
            }
            if (o.has("elapsed_ms")) {
                details.add("first token " + duration(o.get("elapsed_ms").asDouble()));
            }
            if (o.has("concurrency")) {
                details.add("concurrency now " + o.get("concurrency").asInt());
            }
            h.append(esc(String.join(" \u00b7 ", details))).append("</td></tr>");
        }
        h.append("</tbody></table>");
    }

    private static void violation(Violation v, StringBuilder h) {
        h.append("<div class=\"v\"><div class=\"vh\">");
        chip(v.invariant(), h);
        if (v.op() != null) {
            h.append(" op <code>").append(esc(v.op())).append("</code>");
        }
        h.append("</div>");
        Matcher diff = v.invariant() == Invariant.DETERMINISM ? DIFF.matcher(v.message()) : null;
        if (diff != null && diff.matches()) {
            h.append("<p>Run ").append(diff.group(1)).append(" departs from run 1.</p><pre class=\"diff\">")
                    .append("<span class=\"at\">@ ").append(esc(diff.group(2))).append("</span>\n")
                    .append("<span class=\"del\">- run 1: ").append(esc(diff.group(3))).append("</span>\n")
                    .append("<span class=\"add\">+ run ").append(diff.group(1)).append(": ")
                    .append(esc(diff.group(4))).append("</span></pre>");
        } else if (v.invariant() == Invariant.DETERMINISM) {
            h.append("<pre class=\"diff\">").append(esc(v.message())).append("</pre>");
        } else {
            h.append("<p>").append(esc(v.message())).append("</p>");
        }
        details(v, "bound", h);
        h.append("</div>");
    }

    /** The bound (under {@code boundLabel}), the actual figure and what to do, those the violation has. */
    private static void details(Violation v, String boundLabel, StringBuilder h) {
        if (v.bound() == null && v.actual() == null && v.hint() == null) {
            return;
        }
        h.append("<dl>");
        if (v.bound() != null) {
            h.append("<dt>").append(boundLabel).append("</dt><dd>").append(esc(v.bound())).append("</dd>");
        }
        if (v.actual() != null) {
            h.append("<dt>actual</dt><dd>").append(esc(v.actual())).append("</dd>");
        }
        if (v.hint() != null) {
            h.append("<dt>what to do</dt><dd>").append(esc(v.hint())).append("</dd>");
        }
        h.append("</dl>");
    }

    private static void cassettes(RunReport.Cassettes c, Set<Invariant> checked, StringBuilder h) {
        h.append("<section id=\"cassettes\"><h2>Cassettes</h2>");
        if (!checked.contains(Invariant.CASSETTES) && c.checked() == 0 && c.violations().isEmpty()) {
            h.append("<p class=\"muted\">Not checked in this run.</p></section>\n");
            return;
        }
        h.append("<p>").append(plural(c.checked(), "cassette file")).append(" checked, ")
                .append(plural(c.violations().size(), "problem")).append(".</p>");
        for (Violation v : c.violations()) {
            h.append("<div class=\"v\"><div class=\"vh\"><code>").append(esc(v.subject())).append("</code>");
            if (v.op() != null) {
                h.append(" op <code>").append(esc(v.op())).append("</code>");
            }
            h.append("</div><p>").append(esc(v.message())).append("</p>");
            details(v, "expected", h);
            h.append("</div>");
        }
        if (!c.warnings().isEmpty()) {
            h.append("<h4>Warnings</h4><ul class=\"warnings\">");
            c.warnings().forEach(w -> h.append("<li>").append(esc(w)).append("</li>"));
            h.append("</ul>");
        }
        h.append("</section>\n");
    }

    private static void secrets(RunReport.Secrets s, Set<Invariant> checked, StringBuilder h) {
        h.append("<section id=\"secrets\"><h2>Secrets</h2>");
        if (!checked.contains(Invariant.SECRETS) && s.files() == 0 && s.findings().isEmpty()) {
            h.append("<p class=\"muted\">Not scanned in this run.</p></section>\n");
            return;
        }
        h.append("<p>").append(plural(s.files(), "file")).append(" scanned, ")
                .append(plural(s.findings().size(), "finding")).append(". Only masked values are shown.</p>");
        if (!s.findings().isEmpty()) {
            h.append("<table class=\"findings\"><thead><tr><th>where</th><th>rule</th><th>masked</th>"
                    + "<th>JSON path</th><th>fingerprint</th></tr></thead><tbody>");
            for (SecretFindingRow f : s.findings()) {
                h.append("<tr><td><code>").append(esc(f.location())).append("</code></td><td>")
                        .append(esc(f.rule())).append("</td><td><code class=\"masked\">").append(esc(f.masked()))
                        .append("</code></td><td><code>").append(esc(f.jsonPath())).append("</code></td><td><code>")
                        .append(esc(f.fingerprint())).append("</code></td></tr>");
            }
            h.append("</tbody></table>");
        }
        h.append("</section>\n");
    }

    private static void exploration(RunReport.Exploration e, StringBuilder h) {
        if (!e.ran()) {
            return;
        }
        h.append("<section id=\"exploration\"><h2>Exploration</h2><p>").append(plural(e.plansExplored(), "fault plan"))
                .append(" explored, ").append(plural(e.counterexamples().size(), "counterexample")).append(".</p>");
        for (String c : e.counterexamples()) {
            h.append("<pre class=\"plan\">").append(esc(c)).append("</pre>");
        }
        h.append("</section>\n");
    }

    private static void chip(Invariant i, StringBuilder h) {
        h.append("<span class=\"chip\">").append(i.id()).append("</span>");
    }

    private static String colorsJson(Map<String, String> colors) {
        StringBuilder sb = new StringBuilder("{");
        colors.forEach((k, v) -> sb.append(sb.length() > 1 ? "," : "").append('"').append(k).append("\":\"")
                .append(v).append('"'));
        return sb.append('}').toString();
    }

    private static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** A virtual duration as people read it: {@code 10 ms}, {@code 1.5 s}, {@code 2.25 min}. */
    static String duration(double ms) {
        if (ms < 1000) {
            return trim(ms, 3) + " ms";
        }
        if (ms < 600_000) {
            return trim(ms / 1000, 3) + " s";
        }
        return trim(ms / 60_000, 2) + " min";
    }

    private static String trim(double v, int digits) {
        if (!Double.isFinite(v)) {
            return String.valueOf(v);
        }
        BigDecimal d = BigDecimal.valueOf(v).setScale(digits, RoundingMode.HALF_UP).stripTrailingZeros();
        return d.signum() == 0 ? "0" : d.toPlainString();
    }

    /** Escapes text for HTML element content and quoted attribute values. */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (r != null || out != null) {
                if (out == null) {
                    out = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                if (r != null) {
                    out.append(r);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? s : out.toString();
    }
}
