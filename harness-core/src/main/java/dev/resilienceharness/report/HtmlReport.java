package dev.resilienceharness.report;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import java.math.BigDecimal;
import java.math.RoundingMode;
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
import tools.jackson.databind.JsonNode;

/**
 * {@code report.html}: one self-contained page (inline CSS, SVG and script, no network) that shows at a glance
 * what broke and why. Scenarios are listed failures first, each folded in a {@code <details>}; its timeline
 * is drawn from one embedded JSON block only when it is opened, so a thousand scenarios still open at once.
 * {@code #all} (or {@code ?expand=all}) in the URL opens and draws every scenario.
 */
public final class HtmlReport {

    /** Failing scenarios start unfolded when there are fewer than this many. */
    static final int OPEN_FAILURES_BELOW = 20;

    /** Violation lines listed under the verdict before "and N more". */
    static final int GLANCE_LINES = 12;

    /** Mark colour per fault kind; {@code _other} for kinds this page does not know. */
    static final Map<String, String> FAULT_COLORS = faultColors();

    private static final Map<Invariant, String> DESCRIPTIONS = descriptions();

    private static final Pattern DIFF = Pattern.compile("run (\\d+) differs from run 1 at (\\S+): (.*) vs (.*)",
            Pattern.DOTALL);

    private HtmlReport() {
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
        return m;
    }

    /** The page, with every invariant counted as checked. */
    public static String toHtml(RunReport report) {
        return toHtml(report, EnumSet.allOf(Invariant.class));
    }

    /** The page; invariants outside {@code checked} show as not checked unless something violated them. */
    public static String toHtml(RunReport report, Set<Invariant> checked) {
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
        h.append("</main>\n<footer>Times are on the virtual clock (no real time passed). report.json and"
                + " junit/TEST-resilience.xml are beside this file.</footer>\n");
        h.append("<script>\n").append(SCRIPT.replace("/*COLORS*/{}", colorsJson())).append("</script>\n");
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
                .append(" \u00b7 Resilience report</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
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
        if (v.bound() != null || v.actual() != null) {
            sb.append(" (bound ").append(v.bound() == null ? "-" : v.bound()).append(", actual ")
                    .append(v.actual() == null ? "-" : v.actual()).append(')');
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
        legend(h);
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

    private static void legend(StringBuilder h) {
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
                + "</span>restart</span></div><div class=\"legend\"><span class=\"muted\">Outcome per op:</span>"
                + "<span><i class=\"sq o-ok\"></i>ok</span>"
                + "<span><i class=\"sq o-degraded\"></i>degraded</span><span><i class=\"sq o-stopped\"></i>stopped"
                + "</span></div>");
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
        h.append("</div><div class=\"tl\" data-i=\"").append(index).append("\"></div>");
        outcomes(s, h);
        if (fails) {
            h.append("<h4>Violations</h4>");
            for (Violation v : s.violations()) {
                violation(v, h);
            }
        }
        h.append("</div></details>\n");
    }

    private static void fact(String label, double actual, double bound, String text, StringBuilder h) {
        double pct = bound <= 0 ? (actual > 0 ? 100 : 0) : Math.min(100, actual * 100 / bound);
        h.append("<div class=\"fact").append(actual > bound ? " over" : "").append("\"><span class=\"lbl\">")
                .append(label).append("</span><span class=\"bar\"><span style=\"width:")
                .append(BigDecimal.valueOf(pct).setScale(1, RoundingMode.HALF_UP).toPlainString())
                .append("%\"></span></span><span>").append(esc(text)).append("</span></div>");
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
                details.add("retry_after " + (o.get("retry_after").isNull() ? "none" : o.get("retry_after").asString()));
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
        if (v.bound() != null || v.actual() != null || v.hint() != null) {
            h.append("<dl>");
            if (v.bound() != null) {
                h.append("<dt>bound</dt><dd>").append(esc(v.bound())).append("</dd>");
            }
            if (v.actual() != null) {
                h.append("<dt>actual</dt><dd>").append(esc(v.actual())).append("</dd>");
            }
            if (v.hint() != null) {
                h.append("<dt>what to do</dt><dd>").append(esc(v.hint())).append("</dd>");
            }
            h.append("</dl>");
        }
        h.append("</div>");
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
            if (v.bound() != null || v.actual() != null || v.hint() != null) {
                h.append("<dl>");
                if (v.bound() != null) {
                    h.append("<dt>expected</dt><dd>").append(esc(v.bound())).append("</dd>");
                }
                if (v.actual() != null) {
                    h.append("<dt>actual</dt><dd>").append(esc(v.actual())).append("</dd>");
                }
                if (v.hint() != null) {
                    h.append("<dt>what to do</dt><dd>").append(esc(v.hint())).append("</dd>");
                }
                h.append("</dl>");
            }
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

    private static String colorsJson() {
        StringBuilder sb = new StringBuilder("{");
        FAULT_COLORS.forEach((k, v) -> sb.append(sb.length() > 1 ? "," : "").append('"').append(k).append("\":\"")
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

    private static final String CSS = """
            :root{--ok:#188038;--fail:#c5221f;--warn:#b06000;--muted:#5f6368;--line:#dadce0;--soft:#f1f3f4}
            *{box-sizing:border-box}
            body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#202124;background:#fff}
            header{padding:18px 28px 16px;color:#fff}
            header.pass{background:var(--ok)}header.fail{background:var(--fail)}
            header h1{margin:0;font-size:13px;font-weight:600;letter-spacing:.04em;text-transform:uppercase;opacity:.85}
            .verdict{margin:2px 0 0;font-size:34px;font-weight:800;line-height:1.1}
            .verdict-line{margin:4px 0 0;font-size:16px}.totals{margin:2px 0 0;opacity:.85}
            .glance{margin:12px 0 0;padding:10px 14px 10px 30px;background:rgba(255,255,255,.12);border-radius:6px;max-width:1200px}
            .glance li{margin:2px 0}.glance a{color:#fff;font-weight:600}.glance .chip{background:rgba(255,255,255,.9)}
            main{padding:4px 28px 24px}
            h2{font-size:18px;margin:22px 0 8px}h4{margin:14px 0 6px;font-size:13px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
            table{border-collapse:collapse}th,td{text-align:left;padding:5px 10px;border-bottom:1px solid var(--line);vertical-align:top}
            th{font-weight:600;color:var(--muted);font-size:12px}.num{text-align:right}
            table.summary tr.fail td{background:#fce8e6}table.summary tr.skip td{color:var(--muted)}
            code{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);padding:0 3px;border-radius:3px}
            .muted{color:var(--muted)}
            .st{display:inline-block;min-width:44px;text-align:center;font-size:11px;font-weight:700;padding:1px 6px;border-radius:3px;color:#fff}
            .st.pass{background:var(--ok)}.st.fail{background:var(--fail)}.st.skip{background:#9aa0a6}
            .chip{display:inline-block;font-size:11px;padding:0 6px;border-radius:9px;background:#fce8e6;color:var(--fail);font-weight:600;margin-left:4px}
            button{font:inherit;font-size:12px;border:1px solid var(--line);background:#fff;border-radius:4px;padding:3px 9px;cursor:pointer;margin:0 3px 3px 0}
            button.on{background:#202124;color:#fff;border-color:#202124}
            button.link{border:0;padding:0;margin:0;color:#1a73e8;background:none;font-size:14px;text-decoration:underline}
            .toolbar{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:6px 0 8px}
            #q{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:4px;width:260px}
            .legend{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:center;font-size:12px;margin:0 0 6px}
            .legend+.legend{margin-bottom:10px}a{color:#1a73e8}
            .legend>span{display:inline-flex;align-items:center;gap:4px}
            .sw{display:inline-block;width:18px;height:10px}.sw.wait{background:#e8eaed;border:1px dashed #9aa0a6}.sw.restart{border-left:2px dashed var(--fail);width:2px}
            details.scn{border:1px solid var(--line);border-left:4px solid var(--ok);border-radius:4px;margin:0 0 6px;content-visibility:auto;contain-intrinsic-size:auto 36px}
            details.scn.fail{border-left-color:var(--fail)}
            details.scn>summary{display:flex;flex-wrap:wrap;align-items:center;gap:6px 12px;padding:6px 10px;cursor:pointer}
            details.scn[open]>summary{border-bottom:1px solid var(--line);background:#fafafa}
            .nm{font-weight:600;word-break:break-all}
            .kv{font-size:12px;color:var(--muted)}.kv.over{color:var(--fail);font-weight:700}
            .ocs i,.sq{display:inline-block;width:9px;height:9px;margin-right:2px;border-radius:2px;background:#9aa0a6}
            .o-ok{background:var(--ok)!important}.o-degraded{background:#f29900!important}.o-stopped{background:var(--fail)!important}
            .badge{display:inline-block;font-size:11px;padding:0 6px;border-radius:3px;color:#fff;font-weight:600}
            .body{padding:8px 14px 12px}
            .facts{display:flex;flex-wrap:wrap;gap:6px 28px}
            .fact{display:flex;align-items:center;gap:8px;font-size:13px}.fact .lbl{color:var(--muted)}
            .bar{display:inline-block;width:140px;height:8px;background:var(--soft);border-radius:4px;overflow:hidden}
            .bar>span{display:block;height:100%;background:#1a73e8}.fact.over .bar>span{background:var(--fail)}.fact.over{color:var(--fail);font-weight:600}
            .tl{overflow-x:auto;margin:10px 0 4px}
            .tl svg{display:block;font:11px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
            .v{border-left:3px solid var(--fail);background:#fef7f6;padding:6px 10px;margin:6px 0;border-radius:0 4px 4px 0}
            .v p{margin:4px 0}.vh .chip{margin-left:0}
            .v dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:4px 0 0;font-size:13px}.v dt{color:var(--muted)}.v dd{margin:0}
            pre{font:12px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);padding:8px 10px;border-radius:4px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
            .diff .del{color:#a50e0e;background:#fce8e6}.diff .add{color:#0d652d;background:#e6f4ea}.diff .at{color:var(--muted)}
            .masked{color:var(--fail)}
            footer{padding:14px 28px;color:var(--muted);font-size:12px;border-top:1px solid var(--line)}
            """;

    private static final String SCRIPT = """
            (function () {
              'use strict';
              var COLORS = /*COLORS*/{};
              var RESULT = {ok: 'answered', transient: 'transient failure', quota: 'quota rejection',
                schema: 'schema-invalid tool call', crash: 'process died'};
              var STATUS = {ok: '#188038', degraded: '#f29900', stopped: '#c5221f'};
              var SLOT = 26, LANE = 28, TOP = 40;
              function esc(s) {
                return String(s).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; });
              }
              function trim(v, d) { return String(+v.toFixed(d)); }
              function dur(ms) {
                if (ms < 1000) { return trim(ms, 3) + ' ms'; }
                if (ms < 600000) { return trim(ms / 1000, 3) + ' s'; }
                return trim(ms / 60000, 2) + ' min';
              }
              function short(s, n) { return s.length > n ? s.slice(0, n - 1) + '\\u2026' : s; }
              function timeline(t) {
                var lanes = t.ops.length;
                if (!lanes) { return '<p class="muted">No calls were made.</p>'; }
                var longest = 0;
                t.ops.forEach(function (o) { longest = Math.max(longest, Math.min(o.length, 24)); });
                var LEFT = Math.max(60, Math.min(190, 18 + longest * 7));
                var bottom = TOP + lanes * LANE;
                var after = {}, restarts = {};
                t.waits.forEach(function (w) { (after[w[2]] = after[w[2]] || []).push(w); });
                t.restarts.forEach(function (r) { restarts[r] = true; });
                var x = LEFT + 10, bands = [], marks = [], lines = [], ticks = [], lastTick = -1e9;
                function tick(time, force) {
                  if (!force && x - lastTick < 56) { return; }
                  lastTick = x;
                  ticks.push('<line x1="' + x + '" y1="' + bottom + '" x2="' + x + '" y2="' + (bottom + 5) +
                    '" stroke="#9aa0a6"/><text x="' + x + '" y="' + (bottom + 17) + '" text-anchor="middle" fill="#5f6368">' +
                    (time === 0 ? 't=0' : esc(dur(time))) + '</text>');
                }
                function waits(k) {
                  (after[k] || []).forEach(function (w) {
                    var width = Math.round(Math.max(40, Math.min(150, 26 + 22 * Math.log(1 + w[1]) / Math.LN10)));
                    bands.push('<g class="wait" data-ms="' + w[1] + '"><rect x="' + (x + 2) + '" y="' + (TOP - 2) +
                      '" width="' + (width - 4) + '" height="' + (lanes * LANE + 4) +
                      '" rx="3" fill="#e8eaed" stroke="#9aa0a6" stroke-dasharray="3 2"/><text x="' + (x + width / 2) +
                      '" y="' + (TOP - 8) + '" text-anchor="middle" fill="#3c4043" font-weight="600">' + esc(dur(w[1])) +
                      '</text><title>wait ' + esc(dur(w[1])) + ' from t=' + esc(dur(w[0])) + '</title></g>');
                    x += width;
                    tick(w[0] + w[1], false);
                  });
                }
                tick(0, true);
                waits(-1);
                t.calls.forEach(function (c, i) {
                  var op = t.ops[c[0]], y = TOP + c[0] * LANE + LANE / 2, col = COLORS[c[2]] || COLORS._other;
                  x += SLOT / 2;
                  var shape = c[1] > 0
                    ? '<rect x="' + (x - 6) + '" y="' + (y - 6) + '" width="12" height="12" transform="rotate(45 ' + x +
                      ' ' + y + ')" fill="' + col + '"/>'
                    : '<circle cx="' + x + '" cy="' + y + '" r="7.5" fill="' + col + '"/>';
                  var cross = c[3] === 'ok' ? '' : '<path d="M' + (x - 3.5) + ' ' + (y - 3.5) + 'l7 7m0-7l-7 7" stroke="#fff"' +
                    ' stroke-width="2"/>';
                  var tip = 'call ' + (i + 1) + ': ' + op + (c[1] > 0 ? ' (repair ' + c[1] + ')' : '') + ' at t=' +
                    dur(c[4]) + ' \\u2014 fault ' + c[2] + ', ' + (RESULT[c[3]] || c[3]) +
                    (c[5] !== null ? ', first token after ' + dur(c[5]) : '');
                  marks.push('<g class="call-mark" data-fault="' + esc(c[2]) + '" data-result="' + esc(c[3]) +
                    '" data-op="' + esc(op) + '">' + shape + cross + '<title>' + esc(tip) + '</title></g>');
                  x += SLOT / 2;
                  if (restarts[i]) {
                    x += 6;
                    lines.push('<g class="restart"><line x1="' + x + '" y1="' + (TOP - 4) + '" x2="' + x + '" y2="' + bottom +
                      '" stroke="#c5221f" stroke-width="2" stroke-dasharray="4 3"/><text x="' + x + '" y="' + (TOP - 20) +
                      '" text-anchor="middle" fill="#c5221f" font-weight="700">restart</text>' +
                      '<title>the process was recycled during call ' + (i + 1) + ' and resumed from its journal</title></g>');
                    x += 8;
                  }
                  waits(i);
                });
                var end = x + 12, badge = 0, height = bottom + 24, rows = [], ends = [];
                for (var l = 0; l < lanes; l++) {
                  var y0 = TOP + l * LANE;
                  rows.push('<rect x="0" y="' + y0 + '" width="' + end + '" height="' + LANE + '" fill="' +
                    (l % 2 ? '#ffffff' : '#f8f9fa') + '"/><text x="' + (LEFT - 6) + '" y="' + (y0 + LANE / 2 + 4) +
                    '" text-anchor="end" fill="#202124">' + esc(short(t.ops[l], 24)) + '<title>' + esc(t.ops[l]) +
                    '</title></text>');
                }
                var outcomeOf = {};
                t.outcomes.forEach(function (o) { outcomeOf[o[0]] = o; });
                for (var k = 0; k < lanes; k++) {
                  var o = outcomeOf[k], yy = TOP + k * LANE + 5;
                  var label = o ? o[1] + (o[2] ? ': ' + o[2] : '') + ' \\u00b7 ' + o[3] + (o[3] === 1 ? ' attempt' : ' attempts')
                    : 'no outcome';
                  var fill = o ? (STATUS[o[1]] || '#5f6368') : '#9aa0a6', bw = Math.round(label.length * 7 + 16);
                  badge = Math.max(badge, bw);
                  ends.push('<g class="outcome" data-status="' + esc(o ? o[1] : 'none') + '"><rect x="' + (end + 8) + '" y="' +
                    yy + '" width="' + bw + '" height="' + (LANE - 10) + '" rx="3" fill="' + fill +
                    '"/><text x="' + (end + 15) + '" y="' + (yy + 13) + '" fill="#fff" font-weight="600">' + esc(label) +
                    '</text></g>');
                }
                var width = end + 16 + badge;
                return '<svg class="timeline" width="' + width + '" height="' + height + '" viewBox="0 0 ' + width + ' ' +
                  height + '" role="img" aria-label="timeline of ' + t.calls.length + ' calls">' +
                  '<text x="' + (LEFT - 6) + '" y="' + (TOP - 8) + '" text-anchor="end" fill="#5f6368">op</text>' +
                  rows.join('') + bands.join('') + '<line x1="' + LEFT + '" y1="' + bottom + '" x2="' + end + '" y2="' +
                  bottom + '" stroke="#9aa0a6"/>' + ticks.join('') + lines.join('') + marks.join('') + ends.join('') +
                  '</svg>';
              }
              var timelines = null;
              function draw(d) {
                var box = d.querySelector('.tl');
                if (!box || box.getAttribute('data-drawn')) { return; }
                box.setAttribute('data-drawn', '1');
                if (!timelines) { timelines = JSON.parse(document.getElementById('timelines').textContent); }
                box.insertAdjacentHTML('beforeend', timeline(timelines[+box.getAttribute('data-i')]));
              }
              var list = Array.prototype.slice.call(document.querySelectorAll('details.scn'));
              var q = document.getElementById('q'), shown = document.getElementById('shown'), filter = 'all';
              var buttons = Array.prototype.slice.call(document.querySelectorAll('[data-filter]'));
              function apply() {
                var text = q.value.toLowerCase(), n = 0;
                list.forEach(function (d) {
                  var ok = (!text || d.getAttribute('data-name').toLowerCase().indexOf(text) >= 0) &&
                    (filter === 'all' || (filter === 'failing' ? d.classList.contains('fail')
                      : (' ' + d.getAttribute('data-inv') + ' ').indexOf(' ' + filter + ' ') >= 0));
                  d.hidden = !ok;
                  if (ok) { n++; }
                });
                shown.textContent = n + ' of ' + list.length + ' shown';
              }
              q.addEventListener('input', apply);
              buttons.forEach(function (b) {
                b.addEventListener('click', function () {
                  filter = b.getAttribute('data-filter');
                  buttons.forEach(function (o) { o.classList.toggle('on', o.getAttribute('data-filter') === filter); });
                  apply();
                  if (b.classList.contains('link')) { document.getElementById('scenarios').scrollIntoView(); }
                });
              });
              document.getElementById('expand').addEventListener('click', function () {
                list.forEach(function (d) { if (!d.hidden) { d.open = true; draw(d); } });
              });
              document.getElementById('collapse').addEventListener('click', function () {
                list.forEach(function (d) { d.open = false; });
              });
              document.addEventListener('toggle', function (e) {
                if (e.target.classList && e.target.classList.contains('scn') && e.target.open) { draw(e.target); }
              }, true);
              function reveal() {
                var h = location.hash.slice(1);
                if (h === 'all' || /(^|[?&])expand=all(&|$)/.test(location.search.slice(1))) {
                  list.forEach(function (d) { d.open = true; draw(d); });
                  return;
                }
                var el = h && document.getElementById(h);
                if (el && el.tagName === 'DETAILS') { el.open = true; draw(el); el.scrollIntoView(); }
              }
              window.addEventListener('hashchange', reveal);
              list.forEach(function (d) { if (d.open) { draw(d); } });
              reveal();
            })();
            """;
}
