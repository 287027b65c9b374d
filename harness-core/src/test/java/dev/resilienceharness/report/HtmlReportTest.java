package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.scenario.Rehearsal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class HtmlReportTest {

    static final String HOSTILE = "<script>alert(1)</script>&\"'";

    static final Pattern JSON_BLOCK = Pattern.compile(
            "<script type=\"application/json\" id=\"timelines\">(.*?)</script>", Pattern.DOTALL);

    /** The embedded timeline data: one entry per scenario, in page order. */
    static JsonNode timelines(String html) {
        Matcher m = JSON_BLOCK.matcher(html);
        assertTrue(m.find(), "the page has its timeline data block");
        String block = m.group(1);
        assertFalse(block.contains("</") || block.contains("<!--"), "the block cannot end early");
        assertFalse(block.contains("\u2028") || block.contains("\u2029"), "no raw line separators");
        assertFalse(m.find(), "one data block only");
        return Json.readTree(block);
    }

    static RunReport realistic(Path dir) throws Exception {
        List<ScenarioReport> scenarios = new ArrayList<>(ReportFixtures.corpus("mixed"));
        scenarios.addAll(ReportFixtures.failing(dir));
        return RunReport.builder().scenarios(scenarios)
                .cassettes(6, List.of(new Violation(Invariant.CASSETTES, "cassettes/x.json", null, null, "x",
                        "volatile field response.id is still in the cassette", "Remove it")), List.of("orphan y"))
                .secrets(6, List.of(RunReportTest.FINDING)).exploration(25, List.of("- name: found\n  ops: [plan]"))
                .build();
    }

    @Test
    void hostile_names_ops_and_messages_are_escaped_everywhere() {
        Violation v = new Violation(Invariant.BUDGET, HOSTILE, HOSTILE, HOSTILE, HOSTILE, HOSTILE, HOSTILE);
        SecretFindingRow f = new SecretFindingRow(HOSTILE, 1, 2, HOSTILE, HOSTILE, HOSTILE, HOSTILE);
        RunReport report = RunReport.builder().scenario(ReportFixtures.handmade(HOSTILE, HOSTILE, List.of(v)))
                .cassettes(1, List.of(new Violation(Invariant.CASSETTES, HOSTILE, HOSTILE, null, null, HOSTILE, null)),
                        List.of(HOSTILE))
                .secrets(1, List.of(f)).exploration(1, List.of(HOSTILE)).build();
        String html = HtmlReport.toHtml(report);
        assertFalse(html.contains("<script>alert"), "no raw script tag from data");
        assertFalse(html.contains("alert(1)</script>"), "no raw closing tag from data");
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;"));
        assertTrue(html.contains("data-name=\"&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;\""));
        // the only script elements are the page's own and the JSON blocks
        Matcher scripts = Pattern.compile("<script[^>]*>").matcher(html);
        while (scripts.find()) {
            assertTrue(scripts.group().equals("<script>")
                    || scripts.group().equals("<script type=\"application/json\" id=\"timelines\">"), scripts.group());
        }
    }

    @Test
    void timeline_json_blocks_escape_script_ends_and_line_separators_and_parse_back() {
        String op = "</script><!--\u2028\u2029&";
        RunReport report = RunReport.builder().scenario(ReportFixtures.handmade("s", op, List.of())).build();
        String html = HtmlReport.toHtml(report);
        assertEquals(op, timelines(html).get(0).get("ops").get(0).asString());
    }

    @Test
    void the_page_references_nothing_off_the_page(@TempDir Path dir) throws Exception {
        String html = HtmlReport.toHtml(realistic(dir));
        assertNoExternalReferences(html);
    }

    static void assertNoExternalReferences(String html) {
        String lower = html.toLowerCase(java.util.Locale.ROOT);
        for (String banned : List.of("http://", "https://", "@import", "src=", "//cdn", "ftp://", "<iframe",
                "<img", "<object", "<embed", "<link rel=\"stylesheet")) {
            assertFalse(lower.contains(banned), "the page contains " + banned);
        }
        Matcher href = Pattern.compile("href=\"([^\"]*)\"").matcher(html);
        while (href.find()) {
            String target = href.group(1);
            assertTrue(target.startsWith("#") || target.equals("data:,"), "off-page link " + target);
        }
        Matcher url = Pattern.compile("url\\(([^)]*)\\)").matcher(lower);
        while (url.find()) {
            assertTrue(url.group(1).startsWith("#"), "off-page url() " + url.group());
        }
        assertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none';"));
    }

    @Test
    void failures_come_first_then_names_and_a_few_failures_start_open(@TempDir Path dir) throws Exception {
        String html = HtmlReport.toHtml(realistic(dir));
        List<String> opened = new ArrayList<>();
        List<String> classes = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("<details class=\"scn (\\w+)\" id=\"s-\\d+\" data-name=\"([^\"]*)\" data-inv=\"[^\"]*\"( open)?>")
                .matcher(html);
        while (m.find()) {
            classes.add(m.group(1));
            names.add(m.group(2));
            if (m.group(3) != null) {
                opened.add(m.group(2));
            }
        }
        assertEquals(63, names.size());
        assertEquals(List.of("fail", "fail", "fail"), classes.subList(0, 3));
        assertEquals(List.of("drifting-outcomes", "retry-storm", "wrong-expectation"), names.subList(0, 3));
        assertEquals(names.subList(0, 3), opened);
        List<String> passing = names.subList(3, names.size());
        List<String> sorted = new ArrayList<>(passing);
        sorted.sort(null);
        assertEquals(sorted, passing);
        assertFalse(classes.subList(3, classes.size()).contains("fail"));
    }

    @Test
    void shows_verdict_summary_diff_budget_waits_findings_and_exploration(@TempDir Path dir) throws Exception {
        String html = HtmlReport.toHtml(realistic(dir));
        assertTrue(html.contains("<p class=\"verdict\">FAIL</p>"));
        for (Invariant i : Invariant.values()) {
            assertTrue(html.contains(">" + i.id() + "</"), "summary row for " + i.id());
        }
        assertTrue(html.contains("<span class=\"del\">- run 1: "), "determinism diff, run 1 side");
        assertTrue(html.contains("<span class=\"add\">+ run 2: "), "determinism diff, run 2 side");
        assertTrue(html.contains("calls 6 / 4"), "calls against budget of the retry storm");
        assertTrue(html.contains("6 of 4 allowed"));
        assertTrue(html.contains("wait 2.01 s / 15 s"), "total wait against bound");
        assertTrue(html.contains("<code class=\"masked\">sk-p****</code>"));
        assertTrue(html.contains("volatile field response.id is still in the cassette"));
        assertTrue(html.contains("orphan y"));
        assertTrue(html.contains("25 fault plans explored"));
        assertTrue(html.contains("data-filter=\"budget\""), "invariant filter buttons");
        assertTrue(html.contains("id=\"q\" type=\"search\""), "name filter box");
    }

    @Test
    void every_call_is_in_the_timeline_data(@TempDir Path dir) throws Exception {
        RunReport report = realistic(dir);
        String html = HtmlReport.toHtml(report);
        JsonNode data = timelines(html);
        int calls = 0;
        for (JsonNode t : data) {
            calls += t.get("calls").size();
        }
        assertEquals(report.scenarios().size(), data.size());
        for (int i = 0; i < data.size(); i++) {
            assertTrue(html.contains("<div class=\"tl\" data-i=\"" + i + "\"></div>"), "scenario " + i + " points at it");
        }
        assertEquals(report.scenarios().stream().mapToInt(ScenarioReport::calls).sum(), calls);
    }

    @Test
    void a_passing_run_says_pass() throws Exception {
        RunReport report = RunReport.builder().scenarios(ReportFixtures.corpus("plain")).build();
        String html = HtmlReport.toHtml(report, EnumSet.copyOf(Rehearsal.RUN_INVARIANTS));
        assertTrue(html.contains("<header class=\"pass\">"));
        assertTrue(html.contains("<p class=\"verdict\">PASS</p>"));
        assertTrue(html.contains("not checked"), "cassettes and secrets were not checked");
        assertFalse(html.contains("<details class=\"scn fail"));
        assertFalse(html.contains(" open>"));
    }

    @Test
    void a_thousand_scenarios_stay_small_and_many_failures_start_folded() throws Exception {
        RunReport report = ReportFixtures.generated(ReportFixtures.corpus("mixed"), 1000);
        String html = HtmlReport.toHtml(report);
        int bytes = html.getBytes(StandardCharsets.UTF_8).length;
        assertTrue(bytes < 5_000_000, "report.html is " + bytes + " bytes");
        assertEquals(1000, count(html, "<details class=\"scn "));
        assertEquals(100, count(html, "<details class=\"scn fail"));
        assertEquals(0, count(html, " open>"), "100 failures are too many to unfold");
        assertEquals(0, count(html, "class=\"call-mark\" data-fault=\"none\""), "no timeline is drawn up front");
    }

    @Test
    void durations_read_naturally() {
        assertEquals("0 ms", HtmlReport.duration(0));
        assertEquals("10 ms", HtmlReport.duration(10));
        assertEquals("0.25 ms", HtmlReport.duration(0.25));
        assertEquals("1.5 s", HtmlReport.duration(1500));
        assertEquals("30 s", HtmlReport.duration(30_000));
        assertEquals("12.5 min", HtmlReport.duration(750_000));
    }

    static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
            n++;
        }
        return n;
    }

    @Test
    void tools_get_their_legend_table_and_summary_row_only_where_there_are_tools(@TempDir Path dir) throws Exception {
        RunReport report = RunReport.builder().scenarios(ReportFixtures.tools(dir)).build();
        String html = HtmlReport.toHtml(report, ReportWriter.checked(true));
        assertTrue(html.contains("Tool execution (square) colour = tool fault met:"), "tool legend");
        for (String fault : List.of("none", "error", "timeout", "slow", "invalid_result", "timeout_after_commit")) {
            assertTrue(html.contains("fill=\"" + HtmlReport.TOOL_FAULT_COLORS.get(fault) + "\"/></svg>" + fault
                    + "</span>"), "legend entry for " + fault);
        }
        assertTrue(html.contains("<h4>Tool executions</h4>"));
        assertTrue(html.contains("<td><code>refund</code></td><td><code>plan</code></td>"));
        assertTrue(html.contains("<td>timeout_after_commit</td><td>timeout</td><td>yes</td>"));
        assertTrue(html.contains("<button class=\"link\" data-filter=\"side_effects\">side_effects</button>"),
                "summary row");
        assertTrue(html.contains("<span class=\"chip\">side_effects</span>"), "the failing scenario's chip");
        assertTrue(html.contains("\"timeout_after_commit\":\"#202124\""), "the script knows the tool colours");

        RunReport plain = RunReport.builder().scenarios(ReportFixtures.corpus("plain")).build();
        String without = HtmlReport.toHtml(plain, ReportWriter.checked(false));
        assertFalse(without.contains("Tool execution (square)"), "no tool legend without tools");
        assertFalse(without.contains("data-filter=\"side_effects\""), "no side_effects row without tools");
        assertFalse(without.contains("<h4>Tool executions</h4>"));
    }

    @Test
    void mcp_messages_get_their_legend_table_and_timeline_marks_only_where_a_client_reached_a_server(@TempDir Path dir)
            throws Exception {
        ScenarioReport s = ReportFixtures.mcp(dir);
        String html = HtmlReport.toHtml(RunReport.builder().scenarios(List.of(s)).build(), ReportWriter.checked(true));
        assertTrue(html.contains("MCP fault met (an MCP tool's square, another MCP request's pill):"), "MCP legend");
        assertTrue(html.contains("<h4>MCP messages</h4>"));
        assertTrue(html.contains("<td><code>billing</code></td><td><code>tools/call</code> <code>refund</code></td>"
                + "<td><code>resolve</code></td><td>langchain4j-mcp</td><td>timeout</td><td>no reply</td><td>no</td>"),
                "the refund's row");
        assertTrue(html.contains("<q>There was a timeout executing the tool</q>"), "what the loop was handed");
        assertTrue(html.contains("<td><code>refund</code> <span class=\"muted\">on billing</span></td>"),
                "the tool row names its server");
        assertTrue(html.contains("\"session_expired\":\"" + HtmlReport.MCP_FAULT_COLORS.get("session_expired") + "\""),
                "the script knows the MCP colours");
        JsonNode data = TimelineData.toJson(s);
        assertEquals(List.of("billing: initialize", "billing: tools/list"), java.util.stream.StreamSupport
                .stream(data.get("mcp").spliterator(), false).map(m -> m.get(1).asString()).toList());

        String without = HtmlReport.toHtml(RunReport.builder().scenarios(ReportFixtures.corpus("plain")).build(),
                ReportWriter.checked(false));
        assertFalse(without.contains("MCP fault met"), "no MCP legend without MCP");
        assertFalse(without.contains("<h4>MCP messages</h4>"));
    }
}
