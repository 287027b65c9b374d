package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CharsTest {

    @Test
    void tokenCharactersAreLettersDigitsUnderscoreAndDash() {
        for (char c : "azAZ09_-".toCharArray()) {
            assertTrue(Chars.isToken(c), String.valueOf(c));
        }
        for (char c : " .:/+=@%\"é".toCharArray()) {
            assertFalse(Chars.isToken(c), String.valueOf(c));
        }
    }

    @Test
    void classesCountsLowerUpperAndDigits() {
        assertEquals(3, Chars.classes("aB3-".toCharArray(), 0, 4));
        assertEquals(1, Chars.classes("abc".toCharArray(), 0, 3));
        assertEquals(0, Chars.classes("--".toCharArray(), 0, 2));
    }

    @Test
    void hexValues() {
        assertEquals(10, Chars.hexValue('a'));
        assertEquals(15, Chars.hexValue('F'));
        assertEquals(7, Chars.hexValue('7'));
        assertTrue(Chars.startsWith("sk-proj".toCharArray(), 0, 7, "sk-"));
        assertFalse(Chars.startsWith("sk".toCharArray(), 0, 2, "sk-"));
    }
}
