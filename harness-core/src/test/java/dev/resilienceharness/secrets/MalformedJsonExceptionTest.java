package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MalformedJsonExceptionTest {

    @Test
    void namesFileLineAndColumn() {
        MalformedJsonException e = new MalformedJsonException(Path.of("c.json"), 3, 7, "not valid JSON");
        assertEquals("c.json:3:7: not valid JSON", e.getMessage());
        assertEquals(3, e.line());
        assertEquals(7, e.column());
        assertEquals(Path.of("c.json"), e.file());
        assertEquals("c.json: empty", new MalformedJsonException(Path.of("c.json"), 0, 0, "empty").getMessage());
        assertEquals("c.json:2: x", new MalformedJsonException(Path.of("c.json"), 2, 0, "x").getMessage());
    }
}
