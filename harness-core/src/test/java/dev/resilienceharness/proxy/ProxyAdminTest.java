package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.fault.QuotaFault;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyAdminTest {

    @TempDir
    Path dir;

    HarnessConfig config() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                policy: {max_total_wait: 1s}
                scenarios:
                  - {name: quota storm, faults: [quota]}
                """);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    @Test
    void aResetSelectsTheScenarioNamedInTheQuery() throws Exception {
        HarnessConfig config = config();
        ProxyRuns runs = new ProxyRuns(config, null);
        ProxyAdmin admin = new ProxyAdmin(config, runs, Mode.REPLAY);
        ProxyAdmin.Answered a = admin.answer("POST", "/_harness/reset", "scenario=quota%20storm");
        assertEquals(200, a.answer().status());
        assertEquals("quota storm", a.answer().body().get("started").asString());
        assertTrue(a.answer().body().get("ended").isNull(), "the first run saw no request");
        assertEquals("reset to scenario quota storm", a.label());
        assertEquals(new QuotaFault(null), runs.current().nextFault());
    }

    @Test
    void whatCannotBeDoneIsSaid() throws Exception {
        HarnessConfig config = config();
        ProxyAdmin admin = new ProxyAdmin(config, new ProxyRuns(config, null), Mode.REPLAY);
        assertEquals(405, admin.answer("GET", "/_harness/reset", null).answer().status());
        ProxyAdmin.Answered unknownPath = admin.answer("POST", "/_harness/rewind", null);
        assertEquals(404, unknownPath.answer().status());
        assertEquals(ProxyMessages.ADMIN_PATHS, unknownPath.answer().body().at("/error/message").asString());
        ProxyAdmin.Answered unknown = admin.answer("POST", "/_harness/reset", "scenario=nope");
        assertEquals("unknown_scenario", unknown.answer().body().at("/error/type").asString());
        assertTrue(unknown.answer().body().at("/error/message").asString().endsWith("there are [quota storm]"));
        ProxyAdmin recording = new ProxyAdmin(config, new ProxyRuns(config, null), Mode.RECORD_MISSING);
        assertEquals(409, recording.answer("POST", "/_harness/reset", "scenario=quota%20storm").answer().status());
        assertEquals(200, recording.answer("POST", "/_harness/reset", null).answer().status());
    }

    @Test
    void readsOneKeyOfAQueryString() {
        assertEquals("a b", ProxyAdmin.query("x=1&scenario=a+b", "scenario"));
        assertNull(ProxyAdmin.query("scenario=", "scenario"));
        assertNull(ProxyAdmin.query("scenarios=x", "scenario"));
        assertNull(ProxyAdmin.query(null, "scenario"));
    }
}
