package dev.resilienceharness.json;

/**
 * The shortest decimal that reads back as a given double, and of those the closest to it (ties to an even last
 * digit): the digits Python's {@code repr(float)} prints.
 *
 * <p>This is Raffaello Giulietti's Schubfach algorithm ("The Schubfach way to render doubles", 2020), the one
 * behind {@code Double.toString} since JDK 19, with one difference: the JDK prints at least two digits (so
 * {@code 4.9E-324}), Python only as many as needed ({@code 5e-324}). JDK 17's {@code Double.toString} is not
 * always shortest ({@code 2e23} comes out as {@code 1.9999999999999998E23}), so it cannot be used.
 *
 * @param significand the decimal digits as a number, without trailing zeros (0 only for zero)
 * @param exponent    the power of ten the significand is multiplied by
 */
record ShortestDecimal(long significand, int exponent) {

    private static final int P = 53;                   // precision of a double, hidden bit included
    private static final int Q_MIN = -1074;            // exponent of the smallest subnormal's unit
    static final int K_MIN = flog10pow2(Q_MIN);
    static final int K_MAX = flog10pow2(971);  // Q_MAX
    private static final long C_MIN = 1L << (P - 1);
    private static final long T_MASK = C_MIN - 1;
    private static final int BQ_MASK = (1 << 11) - 1;
    private static final long MASK_63 = Long.MAX_VALUE;

    /** g = floor(10^-k 2^-r) + 1 with 2^125 <= g < 2^126, split as g1 2^63 + g0, for k from K_MIN to K_MAX. */
    private static final long[] G = ShortestDecimalTable.G;

    /**
     * The shortest round-tripping decimal of a finite, non-negative double ({@code -0.0} counts as zero).
     *
     * @throws IllegalArgumentException for NaN, an infinity or a negative number
     */
    static ShortestDecimal of(double value) {
        long bits = Double.doubleToRawLongBits(value);
        int bq = (int) (bits >>> (P - 1)) & BQ_MASK;
        if (bq == BQ_MASK || (bits < 0 && value != 0)) {
            throw new IllegalArgumentException("expected a finite, non-negative double, got " + value);
        }
        long t = bits & T_MASK;
        if (bq != 0) {
            int mq = -Q_MIN + 1 - bq;  // minus the binary exponent q
            long c = C_MIN | t;
            if (0 < mq & mq < P) {
                long f = c >> mq;
                if (f << mq == c) {  // an integer below 2^53: its own digits are shortest
                    return trimmed(f, 0);
                }
            }
            return shortest(-mq, c);
        }
        return t == 0 ? new ShortestDecimal(0, 0) : shortest(Q_MIN, t);
    }

    /** Figure 7 of the paper, computed as in its figure 9; names follow the paper (vb is v-bar and so on). */
    private static ShortestDecimal shortest(int q, long c) {
        int out = (int) c & 0x1;  // an even significand's rounding interval includes its bounds
        long cb = c << 2;
        long cbr = cb + 2;
        long cbl;
        int k;
        if (c != C_MIN | q == Q_MIN) {
            cbl = cb - 2;
            k = flog10pow2(q);
        } else {  // a power of two: the gap below is half the gap above
            cbl = cb - 1;
            k = flog10threeQuartersPow2(q);
        }
        int h = q + flog2pow10(-k) + 2;
        int i = (k - K_MIN) << 1;
        long g1 = G[i];
        long g0 = G[i + 1];

        long vb = roundToOdd(g1, g0, cb << h);
        long vbl = roundToOdd(g1, g0, cbl << h);
        long vbr = roundToOdd(g1, g0, cbr << h);

        long s = vb >> 2;
        // One digit fewer, if a multiple of 10^(k+1) lies in the rounding interval (at most one can).
        long sp10 = s / 10 * 10;
        long tp10 = sp10 + 10;
        boolean upin = vbl + out <= sp10 << 2;
        boolean wpin = (tp10 << 2) + out <= vbr;
        if (upin != wpin) {
            return trimmed(upin ? sp10 : tp10, k);
        }
        // Otherwise s or s + 1 (times 10^k): the one inside the interval, or the closer, or the even one.
        long t = s + 1;
        boolean uin = vbl + out <= s << 2;
        boolean win = (t << 2) + out <= vbr;
        if (uin != win) {
            return trimmed(uin ? s : t, k);
        }
        long cmp = vb - ((s + t) << 1);
        return trimmed(cmp < 0 || cmp == 0 && (s & 0x1) == 0 ? s : t, k);
    }

    private static ShortestDecimal trimmed(long f, int e) {
        while (f != 0 && f % 10 == 0) {
            f /= 10;
            e++;
        }
        return new ShortestDecimal(f, e);
    }

    /** cp g 2^-127 rounded to odd, where g = g1 2^63 + g0 (section 9.9 of the paper). */
    private static long roundToOdd(long g1, long g0, long cp) {
        long x1 = Math.multiplyHigh(g0, cp);
        long y0 = g1 * cp;
        long y1 = Math.multiplyHigh(g1, cp);
        long z = (y0 >>> 1) + x1;
        long vbp = y1 + (z >>> 63);
        return vbp | ((z & MASK_63) + MASK_63) >>> 63;
    }

    /** floor(e log10(2)), exact for |e| <= 5456721. */
    static int flog10pow2(int e) {
        return (int) (e * 661_971_961_083L >> 41);
    }

    /** floor(log10(3/4 2^e)), exact for |e| <= 2^20 or so (checked over the range used by the tests). */
    static int flog10threeQuartersPow2(int e) {
        return (int) (e * 661_971_961_083L + -274_743_187_321L >> 41);
    }

    /** floor(e log2(10)), exact for |e| <= 1838394. */
    static int flog2pow10(int e) {
        return (int) (e * 913_124_641_741L >> 38);
    }
}
