package dev.resilienceharness.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class RetryAfterHandlingTest {

    @Test
    void each_value_has_its_yaml_spelling() {
        assertEquals("retry_once", RetryAfterHandling.RETRY_ONCE.yamlName());
        assertEquals("stop", RetryAfterHandling.STOP.yamlName());
    }

    @Test
    void reads_the_yaml_spellings_back() {
        for (RetryAfterHandling h : RetryAfterHandling.values()) {
            assertEquals(h, RetryAfterHandling.fromYaml(h.yamlName()));
        }
    }

    @Test
    void anything_else_is_no_value() {
        assertNull(RetryAfterHandling.fromYaml("RETRY_ONCE"), "the Java name is not the yaml spelling");
        assertNull(RetryAfterHandling.fromYaml("retry-once"));
        assertNull(RetryAfterHandling.fromYaml("Stop"));
        assertNull(RetryAfterHandling.fromYaml(""));
        assertNull(RetryAfterHandling.fromYaml(null));
    }
}
