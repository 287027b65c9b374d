package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Reads the durations of {@code resilience.yaml}: {@code <n>ms}, {@code <n>s}, {@code <n>m} or a plain number of
 * seconds, where {@code n} may have a fraction ({@code 2.5s}, {@code 0.25}). Exact to the nanosecond: the number
 * is read as a decimal, never through a {@code double}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Durations {

    /** The longest duration accepted; anything longer in a policy is a typo. */
    public static final Duration MAX = Duration.ofDays(365);

    private static final Pattern FORM = Pattern.compile("(-)?([0-9]+(?:\\.[0-9]+)?)(ms|s|m)?");
    /** Enough digits for a year in nanoseconds; longer integer parts are refused before any arithmetic. */
    private static final int MAX_INTEGER_DIGITS = 18;
    /** A whole number of nanoseconds never needs more fraction digits than this, even counted in minutes. */
    private static final int MAX_FRACTION_DIGITS = 12;
    private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(MAX.toNanos());

    private Durations() {
    }

    /**
     * The duration {@code text} stands for.
     *
     * @throws IllegalArgumentException with a {@link ConfigMessages} sentence as its message when {@code text} is
     *                                  not a duration, is negative, is longer than {@link #MAX} or is finer than a
     *                                  nanosecond
     */
    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(ConfigMessages.badDuration(text));
        }
        if (m.group(1) != null) {
            throw new IllegalArgumentException(ConfigMessages.negativeDuration(text));
        }
        String number = m.group(2);
        int dot = number.indexOf('.');
        String integer = stripLeadingZeros(dot < 0 ? number : number.substring(0, dot));
        String fraction = dot < 0 ? "" : stripTrailingZeros(number.substring(dot + 1));
        if (integer.length() > MAX_INTEGER_DIGITS) {
            throw new IllegalArgumentException(ConfigMessages.durationTooLarge(text));
        }
        if (fraction.length() > MAX_FRACTION_DIGITS) {
            throw new IllegalArgumentException(ConfigMessages.durationTooPrecise(text));
        }
        String unit = m.group(3) == null ? "s" : m.group(3);
        long nanosPerUnit = switch (unit) {
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            default -> 60_000_000_000L;
        };
        BigDecimal value = new BigDecimal(fraction.isEmpty() ? integer : integer + "." + fraction);
        BigDecimal nanos = value.multiply(BigDecimal.valueOf(nanosPerUnit));
        if (nanos.compareTo(MAX_NANOS) > 0) {
            throw new IllegalArgumentException(ConfigMessages.durationTooLarge(text));
        }
        BigDecimal whole = nanos.stripTrailingZeros();
        if (whole.scale() > 0) {
            throw new IllegalArgumentException(ConfigMessages.durationTooPrecise(text));
        }
        return Duration.ofNanos(whole.longValueExact());
    }

    /**
     * The shortest text {@link #parse} reads back as {@code d}: whole minutes as {@code 2m}, whole seconds as
     * {@code 30s}, else milliseconds with a fraction where needed ({@code 10ms}, {@code 0.5ms}).
     */
    public static String format(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("a duration must not be negative: " + d);
        }
        BigDecimal nanos = BigDecimal.valueOf(d.toNanos());
        if (d.toNanos() != 0 && d.toNanos() % 60_000_000_000L == 0) {
            return d.toMinutes() + "m";
        }
        if (d.toNanos() % 1_000_000_000L == 0) {
            return plain(nanos.movePointLeft(9)) + "s";
        }
        return plain(nanos.movePointLeft(6)) + "ms";
    }

    private static String plain(BigDecimal value) {
        BigDecimal v = value.stripTrailingZeros();
        return (v.scale() < 0 ? v.setScale(0) : v).toPlainString();
    }

    private static String stripTrailingZeros(String digits) {
        int end = digits.length();
        while (end > 0 && digits.charAt(end - 1) == '0') {
            end--;
        }
        return digits.substring(0, end);
    }

    private static String stripLeadingZeros(String digits) {
        int i = 0;
        while (i < digits.length() - 1 && digits.charAt(i) == '0') {
            i++;
        }
        return digits.substring(i);
    }
}
