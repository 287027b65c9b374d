package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class CassetteAgeTest {

    @TempDir
    Path dir;

    private HarnessConfig config(String drift) throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, "version: 1\npolicy: {max_total_wait: 30s}\nscenarios:\n  - name: s\n    ops: [a, b, c]\n"
                + drift, StandardCharsets.UTF_8);
        return ConfigLoader.load(yaml);
    }

    private static void write(HarnessConfig config, String op, Instant at) throws Exception {
        new CassetteStore(config.cassettes(), VolatilePaths.of(List.of()), Mode.RECORD, UnaryOperator.identity(),
                at == null ? null : Clock.fixed(at, ZoneOffset.UTC))
                .write(config.request(op), (ObjectNode) Json.readTree("{\"done\": true}"), null);
    }

    @Test
    void cassettesOlderThanMaxAgeAreStaleAndThoseWithoutATimeAreNot() throws Exception {
        HarnessConfig config = config("drift: {max_age: 30d}\n");
        Instant now = Instant.parse("2026-12-01T00:00:00Z");
        write(config, "a", Instant.parse("2026-10-01T00:00:00Z"));
        write(config, "b", Instant.parse("2026-11-15T00:00:00Z"));
        write(config, "c", null);
        String a = config.cassettes().getFileName() + "/" + new CassetteStore(config.cassettes(),
                VolatilePaths.of(List.of()), Mode.REPLAY, UnaryOperator.identity()).fingerprint(config.request("a"))
                + ".json";
        assertEquals(List.of(a + ": recorded at 2026-10-01T00:00:00Z, 61 days ago, older than drift.max_age (30 days);"
                + " check it with mvn resilience:drift or re-record it with mvn resilience:record"
                + " -Dresilience.mode=record"), CassetteAge.stale(config, now));
    }

    @Test
    void withoutMaxAgeNothingIsStale() throws Exception {
        HarnessConfig config = config("");
        write(config, "a", Instant.parse("2000-01-01T00:00:00Z"));
        assertEquals(List.of(), CassetteAge.stale(config, Instant.parse("2026-12-01T00:00:00Z")));
    }

    @Test
    void agesReadInDaysHoursOrMinutes() {
        assertEquals("3 days", DriftMessages.days(java.time.Duration.ofHours(80)));
        assertEquals("30 hours", DriftMessages.days(java.time.Duration.ofHours(30)));
        assertEquals("90 minutes", DriftMessages.days(java.time.Duration.ofMinutes(90)));
    }
}
