package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.langchain4j.exception.NonRetriableException;
import dev.resilienceharness.cassette.CassetteMiss;
import java.util.List;
import org.junit.jupiter.api.Test;

class CassetteMissExceptionTest {

    @Test
    void itIsNonRetriableAndSaysWhatTheHarnessSays() {
        CassetteMiss miss = new CassetteMiss("plan", "0123456789abcdef", "fedcba9876543210.json",
                List.of("messages[0].content"));
        CassetteMissException e = new CassetteMissException(miss);

        assertInstanceOf(NonRetriableException.class, e);
        assertEquals(miss.getMessage(), e.getMessage());
        assertEquals("no cassette for op 'plan': looked for 0123456789abcdef.json; the nearest recorded request is"
                + " fedcba9876543210.json, which differs at messages[0].content. Run mvn resilience:record to record"
                + " it", e.getMessage());
        assertSame(miss, e.miss());
        assertSame(miss, e.getCause());
    }
}
