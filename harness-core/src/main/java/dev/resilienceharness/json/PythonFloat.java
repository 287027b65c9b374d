package dev.resilienceharness.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Python 3's {@code repr(float)}, which is how Python's {@code json.dumps} writes floats: the shortest digits
 * that read back as the same double, positional from {@code 1e-04} up to below {@code 1e+16} ({@code 0.0001},
 * {@code 100.0}), scientific outside it ({@code 1e-05}, {@code 1e+16}, {@code 5e-324}).
 */
@API(status = INTERNAL, since = "0.1.0")
public final class PythonFloat {

    static final String NOT_FINITE = "NaN and infinities have no JSON form";

    private PythonFloat() {
    }

    /**
     * The text Python prints for this float.
     *
     * @throws IllegalArgumentException for NaN and the infinities
     */
    public static String repr(double value) {
        return append(value, new StringBuilder(24)).toString();
    }

    /**
     * Appends the text Python prints for this float.
     *
     * @return {@code out}
     * @throws IllegalArgumentException for NaN and the infinities (nothing is appended then)
     */
    public static StringBuilder append(double value, StringBuilder out) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(NOT_FINITE);
        }
        if (Double.doubleToRawLongBits(value) < 0) {
            out.append('-');
        }
        ShortestDecimal decimal = ShortestDecimal.of(Math.abs(value));
        long f = decimal.significand();
        if (f == 0) {
            return out.append("0.0");
        }
        char[] digits = new char[19];
        int start = digits.length;
        while (f != 0) {
            digits[--start] = (char) ('0' + (int) (f % 10));
            f /= 10;
        }
        int n = digits.length - start;
        int point = n + decimal.exponent();  // the value is 0.<digits> * 10^point
        if (point > -4 && point <= 16) {
            positional(digits, start, n, point, out);
        } else {
            scientific(digits, start, n, point - 1, out);
        }
        return out;
    }

    private static void positional(char[] digits, int start, int n, int point, StringBuilder out) {
        if (point <= 0) {
            out.append("0.");
            for (int i = point; i < 0; i++) {
                out.append('0');
            }
            out.append(digits, start, n);
        } else if (point < n) {
            out.append(digits, start, point).append('.').append(digits, start + point, n - point);
        } else {
            out.append(digits, start, n);
            for (int i = n; i < point; i++) {
                out.append('0');
            }
            out.append(".0");
        }
    }

    private static void scientific(char[] digits, int start, int n, int exponent, StringBuilder out) {
        out.append(digits[start]);
        if (n > 1) {
            out.append('.').append(digits, start + 1, n - 1);
        }
        out.append(exponent < 0 ? "e-" : "e+");
        int abs = Math.abs(exponent);
        if (abs < 10) {
            out.append('0');
        }
        out.append(abs);
    }
}
