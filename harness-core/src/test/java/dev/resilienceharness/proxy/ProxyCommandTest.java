package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;

class ProxyCommandTest {

    static final String PLAN = ReplayProxyTest.PLAN;

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    void project(String scenarios) throws Exception {
        ReplayProxyTest helper = new ReplayProxyTest();
        helper.dir = dir;
        helper.project(scenarios);
    }

    static String plainScenario() {
        return ReplayProxyTest.plainScenario();
    }

    @Test
    void theCommandLineServesUntilStopped() throws Exception {
        project(plainScenario());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CountDownLatch stop = new CountDownLatch(1);
        AtomicInteger status = new AtomicInteger(-1);
        Thread serving = new Thread(() -> {
            try {
                status.set(ProxyCommand.run(new String[] {"--config", dir.resolve("resilience.yaml").toString(),
                        "--port", "0", "--mode", "replay", "--scenario", "plain", "--time-factor", "0"},
                        name -> null, new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8), stop));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        serving.start();
        String printed = "";
        for (int i = 0; i < 200 && !printed.contains("Stop with Ctrl-C"); i++) {
            Thread.sleep(20);
            printed = out.toString(StandardCharsets.UTF_8);
        }
        assertTrue(printed.startsWith("Serving replay on http://127.0.0.1:"), printed + err);
        String base = printed.substring("Serving replay on ".length(), printed.indexOf(" with"));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString(PLAN)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        stop.countDown();
        serving.join(5000);
        assertEquals(0, status.get());

        ByteArrayOutputStream bad = new ByteArrayOutputStream();
        assertEquals(2, ProxyCommand.run(new String[] {"--mode", "rewind"}, name -> null, System.out,
                new PrintStream(bad, true, StandardCharsets.UTF_8), new CountDownLatch(0)));
        assertTrue(bad.toString(StandardCharsets.UTF_8).startsWith(
                "error: resilience.mode must be replay, record or record-missing, was 'rewind'"));
    }

    @Test
    void printsALinePerRequestAndWritesTheReportWhenStopped() throws Exception {
        project(plainScenario());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CountDownLatch stop = new CountDownLatch(1);
        Path reports = dir.resolve("reports");
        Thread serving = new Thread(() -> {
            try {
                ProxyCommand.run(new String[] {"--config", dir.resolve("resilience.yaml").toString(), "--port", "0",
                    "--time-factor", "0", "--report-dir", reports.toString()}, name -> null,
                        new PrintStream(out, true, StandardCharsets.UTF_8), System.err, stop);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        serving.start();
        String printed = "";
        for (int i = 0; i < 200 && !printed.contains("Stop with Ctrl-C"); i++) {
            Thread.sleep(20);
            printed = out.toString(StandardCharsets.UTF_8);
        }
        String base = printed.substring("Serving replay on ".length(), printed.indexOf(";"));
        assertEquals(200, http.send(HttpRequest.newBuilder(URI.create(base + "/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString(PLAN)).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode());
        for (int i = 0; i < 200 && !out.toString(StandardCharsets.UTF_8).contains("POST /v1/chat"); i++) {
            Thread.sleep(10); // the line is printed once the answer is out, which the client may see first
        }
        stop.countDown();
        serving.join(5000);
        String all = out.toString(StandardCharsets.UTF_8);
        assertTrue(all.contains("POST /v1/chat/completions fingerprint "), all);
        assertTrue(all.contains("Checked 1 run for call budget and waiting: " + reports.resolve("report.json")), all);
        assertEquals(1, Json.readTree(Files.readString(reports.resolve("report.json"))).at("/summary/scenarios")
                .asInt());
    }
}
