package dev.resilienceharness.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DriftSettingsTest {

    private static final Path FILE = Path.of("conf", "resilience.yaml");
    private static final String MINIMAL = """
            version: 1
            policy:
              max_total_wait: 30s
            scenarios:
              - name: s
                ops: [plan]
            """;

    private static DriftSettings load(String drift) throws ConfigException {
        return ConfigLoader.load(FILE, (MINIMAL + drift).getBytes(UTF_8)).drift();
    }

    private static String error(String drift) {
        return assertThrows(ConfigException.class, () -> load(drift)).getMessage();
    }

    @Test
    void withoutADriftBlockTheDefaultsHold() throws Exception {
        DriftSettings d = load("");
        assertEquals(DriftSettings.DEFAULTS, d);
        assertEquals(2.0, d.latencyFactor());
        assertEquals(Duration.ofMillis(100), d.latencyMargin());
        assertEquals(1.5, d.usageFactor());
        assertEquals(null, d.maxAge());
    }

    @Test
    void everyKeyIsRead() throws Exception {
        DriftSettings d = load("""
                drift:
                  ignore: [response.service_tier, response.usage.*_details]
                  latency_tolerance: 3
                  latency_margin: 250ms
                  usage_tolerance: 1.25
                  max_age: 30d
                """);
        assertEquals(new DriftSettings(List.of("response.service_tier", "response.usage.*_details"), 3.0,
                Duration.ofMillis(250), 1.25, Duration.ofDays(30)), d);
        assertEquals(Duration.ofHours(12), load("drift: {max_age: 12h}\n").maxAge());
        assertEquals(Duration.ofMinutes(90), load("drift: {max_age: 90m}\n").maxAge());
    }

    @Test
    void badValuesAreReportedAtTheirKey() {
        String f = FILE.toString();
        assertEquals(f + ":8:22: drift.latency_tolerance: expected a number of at least 1, such as 2 (twice the"
                + " recorded), at most 1000, got the number 0.5", error("drift:\n  latency_tolerance: 0.5\n"));
        assertEquals(f + ":8:12: drift.ignore[0]: expected a dotted path that starts with response., such as"
                + " response.service_tier, got the text 'usage'", error("drift:\n  ignore: [usage]\n"));
        assertEquals(f + ":8:12: drift.max_age: expected an age such as 30d, 12h or 90m, got the text 'a month'",
                error("drift:\n  max_age: a month\n"));
        assertEquals(f + ":8:3: drift.max_ages: unknown key 'max_ages'; did you mean 'max_age'? The keys allowed"
                + " here are: ignore, latency_tolerance, latency_margin, usage_tolerance, max_age",
                error("drift:\n  max_ages: 3d\n"));
    }
}
