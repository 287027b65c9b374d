package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class CodePointOrderTest {

    @Test
    void putsCharsAboveTheBmpAfterTheTopOfTheBmp() {
        String emoji = "\ud83d\ude00";  // U+1F600
        assertTrue("\uffff".compareTo(emoji) > 0, "UTF-16 order puts U+FFFF after the pair");
        assertTrue(CodePointOrder.INSTANCE.compare("\uffff", emoji) < 0);
        assertTrue(CodePointOrder.INSTANCE.compare("\ue000", emoji) < 0);
        assertTrue(CodePointOrder.INSTANCE.compare("x\ud7ff", "x" + emoji) < 0);
    }

    @Test
    void sortsLikePython() {
        // sorted(["é", "e", "z", "A", "\U0001F600", "\uffff", "\ud800", "", "ab", "a"]) in Python 3
        List<String> keys = new ArrayList<>(List.of("\u00e9", "e", "z", "A", "\ud83d\ude00", "\uffff", "\ud800", "",
                "ab", "a"));
        keys.sort(CodePointOrder.INSTANCE);
        assertEquals(List.of("", "A", "a", "ab", "e", "z", "\u00e9", "\ud800", "\uffff", "\ud83d\ude00"), keys);
    }

    @Test
    void aLoneHighSurrogateIsItsOwnCodePoint() {
        // Python: "\ud83d" + "\ue000" < "\U0001F600" since U+D83D < U+1F600
        assertTrue(CodePointOrder.INSTANCE.compare("\ud83d\ue000", "\ud83d\ude00") < 0);
        assertTrue(CodePointOrder.INSTANCE.compare("\ud83d\ude00", "\ud83d\ue000") > 0);
        assertTrue(CodePointOrder.INSTANCE.compare("\ud83d", "\ud83d\ude00") < 0);
    }

    @Property(tries = 2000)
    void agreesWithComparingCodePointArrays(@ForAll("text") String a, @ForAll("text") String b) {
        int expected = Integer.signum(Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray()));
        assertEquals(expected, Integer.signum(CodePointOrder.INSTANCE.compare(a, b)), a + " vs " + b);
        assertEquals(-expected, Integer.signum(CodePointOrder.INSTANCE.compare(b, a)));
    }

    @Provide
    Arbitrary<String> text() {
        // few distinct chars, so that strings share prefixes and differ at surrogates often
        Arbitrary<String> tricky = Arbitraries.strings()
                .withChars('a', 'b', '\ud7ff', '\ue000', '\uffff', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d',
                        '\ude00')
                .ofMaxLength(5);
        return Arbitraries.oneOf(tricky, Arbitraries.strings().all().ofMaxLength(6));
    }
}
