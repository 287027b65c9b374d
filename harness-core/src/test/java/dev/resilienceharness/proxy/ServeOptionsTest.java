package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Mode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServeOptionsTest {

    @Test
    void defaults() {
        ServeOptions o = ServeOptions.parse();
        assertEquals(new ServeOptions(Path.of("resilience.yaml"), Mode.REPLAY, 8089, null, 1.0), o);
        assertNull(o.scenario());
        assertEquals(Duration.ofSeconds(20), o.mcpClientTimeout(), "the MCP Java SDK's request timeout");
    }

    @Test
    void readsTheMcpClientTimeoutAsADuration() {
        assertEquals(Duration.ofSeconds(60), ServeOptions.parse("--mcp-client-timeout", "60s").mcpClientTimeout());
        assertEquals(Duration.ofMillis(1500), ServeOptions.parse("--mcp-client-timeout=1500ms").mcpClientTimeout());
        assertEquals(Duration.ofMinutes(2), ServeOptions.mcpClientTimeout("2m"));
        for (String bad : new String[] {"0s", "-5s", "soon", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ServeOptions.mcpClientTimeout(bad));
            assertEquals("resilience.mcpClientTimeout must be a positive duration, the request timeout of the MCP"
                    + " clients served (20s for the MCP Java SDK and Spring AI, 60s for langchain4j-mcp), was '"
                    + bad + "'", e.getMessage());
        }
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> new ServeOptions(
                Path.of("r.yaml"), Mode.REPLAY, 0, null, 1, null, Duration.ZERO));
        assertEquals(ServeOptions.mcpClientTimeoutError("0s"), zero.getMessage());
    }

    @Test
    void readsEveryOptionInBothSpellings() {
        assertEquals(new ServeOptions(Path.of("x/r.yaml"), Mode.RECORD_MISSING, 0, "quota", 0.5),
                ServeOptions.parse("--config", "x/r.yaml", "--mode", "record-missing", "--port", "0",
                        "--scenario", "quota", "--time-factor", "0.5"));
        assertEquals(new ServeOptions(Path.of("r.yaml"), Mode.RECORD, 9000, "s", 2),
                ServeOptions.parse("--config=r.yaml", "--mode=record", "--port=9000", "--scenario=s",
                        "--time-factor=2"));
        assertEquals(Path.of("target/resilience"), ServeOptions.parse("--report-dir", "target/resilience")
                .reportDir());
        assertNull(ServeOptions.parse().reportDir(), "no report unless asked for");
    }

    @Test
    void badArgumentsSayWhatIsWrongAndHowToCall() {
        String[][] bad = {{"--mode", "rewind"}, {"--port", "70000"}, {"--port", "x"}, {"--time-factor", "-1"},
                {"--time-factor", "NaN"}, {"--verbose"}, {"--port"}, {"--mcp-client-timeout", "0"}};
        String[] start = {"resilience.mode must be replay, record or record-missing, was 'rewind'",
                "--port must be a port number 0-65535, was '70000'", "--port must be a port number",
                "--time-factor must be a number of 0 or more", "--time-factor must be a number of 0 or more",
                "unknown argument '--verbose'", "--port needs a value",
                "resilience.mcpClientTimeout must be a positive duration"};
        for (int i = 0; i < bad.length; i++) {
            String[] args = bad[i];
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServeOptions.parse(args));
            assertTrue(e.getMessage().startsWith(start[i]), e.getMessage());
            assertTrue(e.getMessage().endsWith(ServeOptions.USAGE), e.getMessage());
        }
    }
}
