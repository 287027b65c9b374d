package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Mode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ServeOptionsTest {

    @Test
    void defaults() {
        ServeOptions o = ServeOptions.parse();
        assertEquals(new ServeOptions(Path.of("resilience.yaml"), Mode.REPLAY, 8089, null, 1.0), o);
        assertNull(o.scenario());
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
                {"--time-factor", "NaN"}, {"--verbose"}, {"--port"}};
        String[] start = {"resilience.mode must be replay, record or record-missing, was 'rewind'",
                "--port must be a port number 0-65535, was '70000'", "--port must be a port number",
                "--time-factor must be a number of 0 or more", "--time-factor must be a number of 0 or more",
                "unknown argument '--verbose'", "--port needs a value"};
        for (int i = 0; i < bad.length; i++) {
            String[] args = bad[i];
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServeOptions.parse(args));
            assertTrue(e.getMessage().startsWith(start[i]), e.getMessage());
            assertTrue(e.getMessage().endsWith(ServeOptions.USAGE), e.getMessage());
        }
    }
}
