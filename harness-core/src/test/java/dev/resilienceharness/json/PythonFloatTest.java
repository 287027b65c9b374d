package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code json/float-repr.txt} holds 21,569 lines, each Python 3.11's {@code repr(float)} of one double: random
 * bit patterns, the first subnormals and random ones, the smallest normals and largest values, every power of
 * two and of ten with both neighbours, the doubles next to 1e16, 1e15, 1e17, 1e-4 and 1e-5, integers as floats,
 * short decimals of every magnitude and random ones (about a third negative). The generator, a seeded Python
 * script, wrote {@code repr(d)} for each; Python's repr reads back as the same double, so each line is both the
 * input (parsed) and the expected output.
 */
class PythonFloatTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0.0 | 0.0",
            "-0.0 | -0.0",
            "1 | 1.0",
            "-1.5 | -1.5",
            "100 | 100.0",
            "0.01 | 0.01",
            "0.0001 | 0.0001",
            "0.00001 | 1e-05",
            "0.000123 | 0.000123",
            "0.0000123 | 1.23e-05",
            "123456789.123 | 123456789.123",
            "9999999999999998 | 9999999999999998.0",
            "1e16 | 1e+16",
            "1.5e300 | 1.5e+300",
            "4.9e-324 | 5e-324",
            "1e22 | 1e+22",
            "2e23 | 2e+23",
            "0.30000000000000004 | 0.30000000000000004",
            "1.7976931348623157e308 | 1.7976931348623157e+308",
            "-2.2250738585072014e-308 | -2.2250738585072014e-308",
            "1e100 | 1e+100",
            "12345678901234567890 | 1.2345678901234567e+19",
    })
    void printsWhatPythonPrints(double value, String python) {
        assertEquals(python, PythonFloat.repr(value));
    }

    @Test
    void refusesNanAndInfinities() {
        for (double value : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PythonFloat.repr(value));
            assertEquals("NaN and infinities have no JSON form", e.getMessage());
        }
    }

    @Test
    void appendsToWhatIsThere() {
        assertEquals("[1e-07", PythonFloat.append(1e-7, new StringBuilder("[")).toString());
    }

    @Test
    void matchesPythonOnTheGeneratedTable() {
        List<String> lines = TestData.lines("/json/float-repr.txt");
        assertTrue(lines.size() > 20_000, "the table is there");
        List<String> wrong = new ArrayList<>();
        for (String python : lines) {
            String ours = PythonFloat.repr(Double.parseDouble(python));
            if (!ours.equals(python)) {
                wrong.add(python + " printed as " + ours);
            }
        }
        assertEquals(List.of(), wrong.subList(0, Math.min(20, wrong.size())), wrong.size() + " differ");
    }

    @Property(tries = 3000)
    void readsBackAsTheSameDouble(@ForAll("finiteDoubles") double value) {
        double back = Double.parseDouble(PythonFloat.repr(value));
        assertEquals(Double.doubleToRawLongBits(value), Double.doubleToRawLongBits(back));
    }

    @Property(tries = 3000)
    void noShorterDigitsReadBackAndNoCloserOnesOfTheSameLength(@ForAll("finiteDoubles") double value) {
        double magnitude = Math.abs(value);
        if (magnitude == 0) {
            return;
        }
        BigDecimal exact = new BigDecimal(magnitude);
        BigDecimal printed = new BigDecimal(PythonFloat.repr(magnitude));
        int digits = printed.stripTrailingZeros().precision();
        if (digits > 1) {
            // If any shorter decimal read back, the one next to the value on one side or the other would.
            for (RoundingMode side : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
                BigDecimal shorter = exact.round(new MathContext(digits - 1, side));
                assertNotEquals(magnitude, Double.parseDouble(shorter.toString()), shorter + " is shorter");
            }
        }
        BigDecimal nearest = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
        if (Double.parseDouble(nearest.toString()) == magnitude) {
            assertEquals(0, nearest.compareTo(printed),
                    nearest + " is nearer (or the even one of a tie) than " + printed);
        }
    }

    @Provide
    Arbitrary<Double> finiteDoubles() {
        return Arbitraries.oneOf(
                Arbitraries.longs().map(Double::longBitsToDouble),
                Arbitraries.longs().between(0, (1L << 52) + 100).map(Double::longBitsToDouble),
                Arbitraries.integers().map(i -> (double) i),
                Arbitraries.doubles(),
                Arbitraries.integers().between(-330, 310).map(e -> Double.parseDouble("1e" + e)),
                Arbitraries.integers().between(-1074, 1023).map(e -> Math.scalb(1.0, e)),
                // quarters between 2^50 and 2^52: many lie halfway between two shortest candidates
                Arbitraries.longs().between(1L << 52, 1L << 54).map(n -> n / 4.0))
                .filter(Double::isFinite);
    }
}
