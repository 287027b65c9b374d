package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StrictUtf8Test {

    @Test
    void utf8_is_its_text_byte_order_mark_and_all() {
        StrictUtf8.Decoded d = StrictUtf8.decode("\uFEFFa: é\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("\uFEFFa: é\n", d.text());
        assertNull(d.malformed());
    }

    @Test
    void the_first_bad_byte_is_placed_by_line_and_code_point_column() {
        byte[] good = "one\ntwo 😀é".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[good.length + 2];
        System.arraycopy(good, 0, bytes, 0, good.length);
        bytes[good.length] = (byte) 0xff;
        bytes[good.length + 1] = 'x';
        StrictUtf8.Decoded d = StrictUtf8.decode(bytes);
        assertNull(d.text());
        // "two 😀é" is six code points (the emoji is one), so the bad byte is the seventh column of line 2.
        assertEquals(new StrictUtf8.Malformed(2, 7, 0xff), d.malformed());
    }
}
