package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class PercentDecodingTest {

    private static String decoded(String s) {
        PercentDecoding.Decoded d = PercentDecoding.decode(s.toCharArray(), 0, s.length());
        return new String(d.text(), 0, d.length());
    }

    @Test
    void decodesEscapesAndLeavesPlusAndMalformedOnesAlone() {
        assertEquals("sk-proj-a+b", decoded("%73k%2Dproj%2da+b"));
        assertEquals("100%", decoded("100%"));
        assertEquals("%zz%4", decoded("%zz%4"));
        assertEquals("café ☃ 😀", decoded("caf%C3%A9%20%E2%98%83%20%F0%9F%98%80"));
        assertEquals("%C3", decoded("%C3"));
    }

    @Test
    void mapsEveryDecodedCharacterBackToItsEscape() {
        String raw = "a%2Db%20c";
        PercentDecoding.Decoded d = PercentDecoding.decode(raw.toCharArray(), 0, raw.length());
        assertEquals("a-b c", new String(d.text(), 0, d.length()));
        assertEquals(1, d.rawIndex()[1]);
        assertEquals(4, d.rawIndex()[2]);
        assertEquals(raw.length(), d.rawIndex()[d.length()]);
    }

    @Test
    void findsEscapes() {
        assertTrue(PercentDecoding.hasEscape("x%41".toCharArray(), 0, 4));
        assertFalse(PercentDecoding.hasEscape("100% sure".toCharArray(), 0, 9));
    }

    @Property
    void undoesUrlEncoding(@ForAll String text) {
        Assume.that(!hasLoneSurrogate(text));
        String encoded = URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
        assertEquals(text, decoded(encoded));
    }

    @Property
    void rawIndexesNeverGoBackwards(@ForAll String raw) {
        PercentDecoding.Decoded d = PercentDecoding.decode(raw.toCharArray(), 0, raw.length());
        for (int i = 1; i <= d.length(); i++) {
            assertTrue(d.rawIndex()[i - 1] <= d.rawIndex()[i]);
        }
        assertEquals(raw.length(), d.rawIndex()[d.length()]);
    }

    private static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return true;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
