package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Loads report.html in a real headless Chromium: it renders (a screenshot that is not blank), draws one call
 * mark per call and one tool mark per tool execution in report.json once every scenario is opened ({@code #all}),
 * and logs nothing to the console.
 *
 * <p>Skipped when no Chromium is found. To run it on Debian: {@code apt-get install -y chromium}; on Ubuntu
 * the {@code chromium-browser} package; elsewhere point {@code -Dresilience.chromium=/path/to/chrome} at any
 * Chromium or Chrome binary. Every launch is time-bounded, uses a fresh profile, and reaches no network:
 * background services are off, host names resolve to nothing, and the page's own CSP allows no fetch.
 */
class HtmlReportBrowserTest {

    static final Duration LAUNCH_TIMEOUT = Duration.ofSeconds(90);

    /** Chromium writes every console message, whatever its level, as an {@code INFO:CONSOLE} log line. */
    static final Pattern CONSOLE = Pattern.compile(".*(:CONSOLE[:(]|Uncaught|console\\.error).*");

    @TempDir
    static Path dir;

    static Path chromium;
    static Path html;
    static JsonNode reportJson;

    @BeforeAll
    static void writeReport() throws Exception {
        chromium = findChromium();
        if (chromium == null) {
            return;
        }
        List<ScenarioReport> scenarios = new ArrayList<>(ReportFixtures.corpus("mixed"));
        scenarios.addAll(ReportFixtures.failing(dir.resolve("failing")));
        scenarios.addAll(ReportFixtures.tools(dir.resolve("tools")));
        scenarios.add(ReportFixtures.mcp(dir.resolve("mcp")));
        RunReport report = RunReport.builder().scenarios(scenarios).cassettes(6, List.of(), List.of())
                .secrets(6, List.of(RunReportTest.FINDING)).build();
        ReportWriter.Written written = ReportWriter.writeAll(report, EnumSet.allOf(Invariant.class),
                dir.resolve("target/resilience"));
        html = written.html();
        reportJson = Json.readTree(Files.readAllBytes(written.json()));
    }

    @BeforeEach
    void needsChromium() {
        // Per test, so that each one shows as skipped with the reason.
        assumeTrue(chromium != null, "no chromium on PATH or at /usr/bin/chromium; install it to run the browser"
                + " tests (Debian: apt-get install -y chromium) or set -Dresilience.chromium=<binary>");
    }

    static Path findChromium() {
        String configured = System.getProperty("resilience.chromium");
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            return Files.isExecutable(p) ? p : null;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String entry : path.split(File.pathSeparator)) {
                for (String name : List.of("chromium", "chromium-browser")) {
                    if (entry.isEmpty()) {
                        continue;
                    }
                    Path p = Path.of(entry, name);
                    if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                        return p;
                    }
                }
            }
        }
        Path fallback = Path.of("/usr/bin/chromium");
        return Files.isExecutable(fallback) ? fallback : null;
    }

    record Run(int exit, String stdout, String stderr) {
        List<String> consoleLines() {
            return stderr.lines().filter(l -> CONSOLE.matcher(l).matches()).toList();
        }
    }

    /** Runs headless Chromium on {@code url} with a fresh profile; killed, with its children, after a timeout. */
    static Run chromium(String url, String... extra) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory(dir, "chromium-");
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-dev-shm-usage",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + work.resolve("profile"),
                "--enable-logging=stderr", "--v=0"));
        cmd.addAll(List.of(extra));
        cmd.add(url);
        Path out = work.resolve("stdout.txt");
        Path err = work.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        boolean done = p.waitFor(LAUNCH_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("chromium did not finish within " + LAUNCH_TIMEOUT + ": " + cmd + "\n"
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void the_page_renders_something_worth_looking_at() throws Exception {
        Path png = dir.resolve("report.png");
        Run run = chromium(html.toUri().toString(), "--screenshot=" + png, "--window-size=1280,2000",
                "--hide-scrollbars");
        assertEquals(0, run.exit(), run.stderr());
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1280, image.getWidth());
        assertEquals(2000, image.getHeight());
        Map<Integer, Integer> colours = new HashMap<>();
        int samples = 0;
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                colours.merge(image.getRGB(x, y) & 0xffffff, 1, Integer::sum);
                samples++;
            }
        }
        int dominant = colours.values().stream().max(Integer::compare).orElse(0);
        assertTrue(colours.size() > 50, "only " + colours.size() + " distinct colours: a blank page");
        assertTrue(dominant < samples * 0.95, "one colour covers " + (100L * dominant / samples) + "% of the page");
        int header = image.getRGB(8, 8) & 0xffffff;
        assertTrue(((header >> 16) & 0xff) > 150 && ((header >> 8) & 0xff) < 80,
                "the verdict header of a failing run is red, was #" + Integer.toHexString(header));
        assertEquals(List.of(), run.consoleLines(), "loading logs nothing to the console");
    }

    @Test
    void opening_every_scenario_draws_one_mark_per_call_in_report_json() throws Exception {
        Run run = chromium(html.toUri() + "#all", "--dump-dom", "--virtual-time-budget=5000");
        assertEquals(0, run.exit(), run.stderr());
        // The page's own script text mentions the class; count only elements in the live DOM.
        String dom = Pattern.compile("<script\\b[^>]*>.*?</script>", Pattern.DOTALL).matcher(run.stdout())
                .replaceAll("");
        int expected = 0;
        for (JsonNode s : reportJson.get("scenarios")) {
            expected += s.get("calls").asInt();
        }
        assertTrue(expected > 100, "the mixed corpus makes many calls");
        assertEquals(expected, count(dom, Pattern.compile("<g class=\"call-mark\"")));
        int scenarios = reportJson.get("scenarios").size();
        assertEquals(scenarios, count(dom, Pattern.compile("<details [^>]*\\bopen\\b")), "#all opens every scenario");
        assertEquals(scenarios, count(dom, Pattern.compile("<svg class=\"timeline\"")), "every scenario made calls");
        assertTrue(count(dom, Pattern.compile("data-fault=\"timeout\"")) > 0);
        assertTrue(count(dom, Pattern.compile("<g class=\"restart\"")) > 0, "the crash fixture shows its restart");
        assertEquals(List.of(), run.consoleLines());
    }

    @Test
    void opening_every_scenario_draws_one_square_per_tool_execution_and_the_legend_names_them() throws Exception {
        Run run = chromium(html.toUri() + "#all", "--dump-dom", "--virtual-time-budget=5000");
        assertEquals(0, run.exit(), run.stderr());
        String dom = Pattern.compile("<script\\b[^>]*>.*?</script>", Pattern.DOTALL).matcher(run.stdout())
                .replaceAll("");
        int expected = 0;
        for (JsonNode s : reportJson.get("scenarios")) {
            expected += s.get("tools").size();
        }
        assertTrue(expected >= 5, "the tool fixtures run the refund tool");
        assertEquals(expected, count(dom, Pattern.compile("<g class=\"tool-mark\"")));
        // Squares, not the circles and diamonds of calls: one rounded rect of 14 px per mark.
        assertEquals(expected, count(dom, Pattern.compile(
                "<g class=\"tool-mark\"[^>]*><rect [^>]*width=\"14\" height=\"14\" rx=\"2\"")));
        assertEquals(1, count(dom, Pattern.compile("<g class=\"tool-mark\" data-tool=\"refund\""
                + " data-fault=\"timeout_after_commit\" data-result=\"timeout\" data-committed=\"true\">")));
        assertTrue(count(dom, Pattern.compile("<title>tool refund for op plan, round \\d+, by the loop at t=[^<]*"
                + " \u2014 fault timeout_after_commit, timeout, committed</title>")) == 1, "the mark's tooltip");
        assertTrue(dom.contains("Tool execution (square) colour = tool fault met:"), "the legend names the marks");
        assertTrue(count(dom, Pattern.compile("aria-label=\"timeline of \\d+ calls and \\d+ tool executions\"")) >= 2);
        assertEquals(List.of(), run.consoleLines());
    }

    @Test
    void expanding_all_or_one_scenario_logs_nothing_to_the_console() throws Exception {
        for (String url : List.of(html.toUri() + "?expand=all", html.toUri() + "#s-1")) {
            Run run = chromium(url, "--dump-dom", "--virtual-time-budget=3000");
            assertEquals(0, run.exit(), run.stderr());
            assertEquals(List.of(), run.consoleLines(), url);
            assertTrue(run.stdout().contains("shown"), "the page rendered: " + url);
        }
    }

    @Test
    void the_console_check_would_see_a_script_error() throws Exception {
        // Guards the check above against a Chromium whose log lines no longer match.
        Path broken = dir.resolve("broken.html");
        Files.writeString(broken, "<!DOCTYPE html><p>x</p><script>console.error('bad'); missingFunction();</script>");
        Run run = chromium(broken.toUri().toString(), "--dump-dom", "--virtual-time-budget=3000");
        List<String> lines = run.consoleLines();
        assertTrue(lines.stream().anyMatch(l -> l.contains("bad")), run.stderr());
        assertTrue(lines.stream().anyMatch(l -> l.contains("missingFunction")), run.stderr());
    }

    static int count(String text, Pattern p) {
        Matcher m = p.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void an_mcp_request_other_than_a_tool_call_is_a_pill_named_by_its_server_and_method() throws Exception {
        Run run = chromium(html.toUri() + "#all", "--dump-dom", "--virtual-time-budget=5000");
        assertEquals(0, run.exit(), run.stderr());
        String dom = Pattern.compile("<script\\b[^>]*>.*?</script>", Pattern.DOTALL).matcher(run.stdout())
                .replaceAll("");
        // initialize and tools/list; the notification is not drawn, and the refund's tools/call is its tool square.
        assertEquals(2, count(dom, Pattern.compile("<g class=\"mcp-mark\"")));
        assertEquals(1, count(dom, Pattern.compile("<g class=\"mcp-mark\" data-label=\"billing: tools/list\""
                + " data-fault=\"none\" data-outcome=\"result\"><rect [^>]*rx=\"5\"")));
        assertEquals(1, count(dom, Pattern.compile("<g class=\"tool-mark\" data-tool=\"refund\" data-fault=\"timeout\""
                + "[^>]*>((?!</g>).)*<title>tool refund on MCP server billing for op resolve")),
                "the square of the MCP tool, with its server in its tooltip");
        assertTrue(dom.contains("and 2 other MCP requests\""), "the picture's label counts them");
        assertEquals(List.of(), run.consoleLines());
    }
}
