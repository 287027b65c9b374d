package dev.resilienceharness.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ForkProtocolTest {

    @Test
    void every_text_crosses_on_one_line_and_comes_back_the_same() {
        for (String text : List.of("", "plain", "two\nlines", "crlf\r\nend", "back\\slash", "\\n is not a line feed",
                "trailing\\", "\\\\\n\\r\r", "caf\u00e9 \u20ac \ud83d\ude00", "\u0001resilience:info inside")) {
            String line = ForkProtocol.escape(text);
            assertTrue(line.indexOf('\n') < 0 && line.indexOf('\r') < 0, line);
            assertEquals(text, ForkProtocol.unescape(line));
        }
    }
}
