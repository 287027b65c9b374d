package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.secrets.Finding;
import dev.resilienceharness.secrets.Rule;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SecretFindingRowTest {

    @Test
    void location_is_file_line_column() {
        SecretFindingRow row = new SecretFindingRow("cassettes/ab.json", 3, 9, "$.request.headers.authorization",
                "openai-key", "sk-p****", "1f2e3d4c5b6a7988");
        assertEquals("cassettes/ab.json:3:9", row.location());
    }

    @Test
    void a_finding_is_shown_relative_to_the_project_with_forward_slashes_and_outside_it_in_full() {
        Path base = Path.of("/work/shop");
        Finding inside = new Finding(base.resolve("cassettes").resolve("ab.json"), 3, 9, "$.api_key", Rule.OPENAI_KEY,
                "sk-p****", "1f2e3d4c5b6a7988");
        SecretFindingRow row = SecretFindingRow.of(inside, base);
        assertEquals(new SecretFindingRow("cassettes/ab.json", 3, 9, "$.api_key", "openai-key", "sk-p****",
                "1f2e3d4c5b6a7988"), row);
        Finding outside = new Finding(Path.of("/elsewhere/c.json"), 1, 2, "$", Rule.OPENAI_KEY, "sk-p****",
                "1f2e3d4c5b6a7988");
        assertEquals(Path.of("/elsewhere/c.json").toAbsolutePath().toString(),
                SecretFindingRow.of(outside, base).file());
    }

    @Test
    void every_text_part_is_required() {
        assertThrows(NullPointerException.class, () -> new SecretFindingRow("f", 1, 1, "$", "rule", null, "fp"));
        assertThrows(NullPointerException.class, () -> new SecretFindingRow(null, 1, 1, "$", "rule", "m", "fp"));
    }
}
