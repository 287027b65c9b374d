package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class SourcePositionTest {

    @Test
    void countsLinesAndUtf16Columns() {
        byte[] content = "{\n  \"é😀\": \"x\"}".getBytes(StandardCharsets.UTF_8);
        SourcePosition p = new SourcePosition(content);
        int valueQuote = "{\n  \"é😀\": ".getBytes(StandardCharsets.UTF_8).length;
        p.moveTo(valueQuote);
        assertEquals(2, p.line());
        // two spaces, quote, é, 😀 (two UTF-16 units), quote, colon, space: the value's quote is column 10
        assertEquals(10, p.column());
        p.moveTo(0);
        assertEquals(1, p.line());
        assertEquals(1, p.column());
    }

    @Property
    void agreesWithCountingFromTheStart(@ForAll String text, @ForAll @IntRange(min = 0, max = 200) int cut) {
        String prefix = text.substring(0, Math.min(cut, text.length()));
        if (!prefix.isEmpty() && Character.isHighSurrogate(prefix.charAt(prefix.length() - 1))) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        String clean = prefix.replaceAll("\\p{Cs}", "?");
        byte[] bytes = (clean + text.replaceAll("\\p{Cs}", "?")).getBytes(StandardCharsets.UTF_8);
        SourcePosition p = new SourcePosition(bytes).moveTo(clean.getBytes(StandardCharsets.UTF_8).length);
        int line = 1;
        int column = 1;
        for (int i = 0; i < clean.length(); i++) {
            if (clean.charAt(i) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        assertEquals(line, p.line());
        assertEquals(column, p.column());
    }
}
