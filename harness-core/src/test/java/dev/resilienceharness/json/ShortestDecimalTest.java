package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShortestDecimalTest {

    @ParameterizedTest
    @CsvSource({
            "0.0, 0, 0",
            "1.0, 1, 0",
            "100.0, 1, 2",
            "0.1, 1, -1",
            "4.9e-324, 5, -324",      // the JDK prints 4.9E-324; Python and this class 5e-324
            "9.9e-324, 1, -323",
            "9.88e-323, 1, -322",     // 20 ulps of the smallest subnormal: JDK 19 says 9.9E-323
            "2e23, 2, 23",            // JDK 17 prints 1.9999999999999998E23
            "1125899906842624.25, 11258999068426242, -1",  // halfway between two shortest: the even one
            "1.7976931348623157e308, 17976931348623157, 292",
            "2.2250738585072014e-308, 22250738585072014, -324",
    })
    void findsTheShortestClosestDigits(double value, long significand, int exponent) {
        assertEquals(new ShortestDecimal(significand, exponent), ShortestDecimal.of(value));
    }

    @Test
    void refusesWhatItCannotRender() {
        assertThrows(IllegalArgumentException.class, () -> ShortestDecimal.of(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> ShortestDecimal.of(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> ShortestDecimal.of(-1.0));
    }

    @Test
    void logarithmApproximationsAreExactOverTheRangeUsed() {
        for (int e = -1200; e <= 1200; e++) {
            assertEquals(floorLog10(BigInteger.ONE, e), ShortestDecimal.flog10pow2(e), "floor(log10(2^" + e + "))");
            assertEquals(floorLog10(BigInteger.valueOf(3), e - 2), ShortestDecimal.flog10threeQuartersPow2(e),
                    "floor(log10(3/4 2^" + e + "))");
        }
        for (int e = -400; e <= 400; e++) {
            BigInteger p = BigInteger.TEN.pow(Math.abs(e));
            int expected = e >= 0 ? p.bitLength() - 1 : -p.bitLength();  // 10^|e| is never a power of two
            assertEquals(expected, ShortestDecimal.flog2pow10(e), "floor(log2(10^" + e + "))");
        }
    }

    @Test
    void theWrittenOutTableIsTheOneBigIntegerComputes() {
        assertEquals(ShortestDecimal.K_MIN, ShortestDecimalTable.K_MIN);
        assertEquals((ShortestDecimal.K_MAX - ShortestDecimal.K_MIN + 1) * 2, ShortestDecimalTable.G.length);
        BigInteger low63 = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
        for (int k = ShortestDecimal.K_MIN; k <= ShortestDecimal.K_MAX; k++) {
            int e = -k;
            int r = ShortestDecimal.flog2pow10(e) - 125;
            BigInteger floor = e >= 0
                    ? (r >= 0 ? BigInteger.TEN.pow(e).shiftRight(r) : BigInteger.TEN.pow(e).shiftLeft(-r))
                    : BigInteger.ONE.shiftLeft(-r).divide(BigInteger.TEN.pow(-e));
            BigInteger g = floor.add(BigInteger.ONE);
            assertEquals(126, g.bitLength(), "10^" + e + " scaled");
            int i = (k - ShortestDecimal.K_MIN) << 1;
            assertEquals(g.shiftRight(63).longValueExact(), ShortestDecimalTable.G[i], "g1 of k = " + k);
            assertEquals(g.and(low63).longValueExact(), ShortestDecimalTable.G[i + 1], "g0 of k = " + k);
        }
    }

    /** floor(log10(m 2^e)) for a small odd m, exactly. */
    private static int floorLog10(BigInteger m, int e) {
        if (e >= 0) {
            return m.shiftLeft(e).toString().length() - 1;
        }
        // m / 2^-e lies in [10^k, 10^(k+1)): find k by scaling with powers of ten
        BigInteger den = BigInteger.ONE.shiftLeft(-e);
        int k = 0;
        BigInteger num = m;
        while (num.compareTo(den) < 0) {
            num = num.multiply(BigInteger.TEN);
            k--;
        }
        while (num.compareTo(den.multiply(BigInteger.TEN)) >= 0) {
            den = den.multiply(BigInteger.TEN);
            k++;
        }
        return k;
    }
}
