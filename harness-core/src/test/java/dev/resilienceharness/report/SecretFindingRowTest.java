package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SecretFindingRowTest {

    @Test
    void location_is_file_line_column() {
        SecretFindingRow row = new SecretFindingRow("cassettes/ab.json", 3, 9, "$.request.headers.authorization",
                "openai-key", "sk-p****", "1f2e3d4c5b6a7988");
        assertEquals("cassettes/ab.json:3:9", row.location());
    }

    @Test
    void every_text_part_is_required() {
        assertThrows(NullPointerException.class, () -> new SecretFindingRow("f", 1, 1, "$", "rule", null, "fp"));
        assertThrows(NullPointerException.class, () -> new SecretFindingRow(null, 1, 1, "$", "rule", "m", "fp"));
    }
}
