package dev.resilienceharness.transport;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a {@code Retry-After} header: a number of seconds (a fraction allowed) or an HTTP-date.
 *
 * <p>Anything else, or a negative number, counts as absent (SPEC section 5). An HTTP-date in the past
 * states a delay of zero.
 */
public final class RetryAfter {

    private static final Pattern SECONDS = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");
    /** Longer than any provider states; keeps the arithmetic far from overflow. */
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(365L * 24 * 3600 * 1000);

    private RetryAfter() {
    }

    /** The delay stated by {@code header} with the clock at {@code now}, or empty when it states none. */
    public static Optional<Duration> parse(String header, Instant now) {
        if (header == null) {
            return Optional.empty();
        }
        String text = header.strip();
        if (SECONDS.matcher(text).matches()) {
            BigDecimal seconds = new BigDecimal(text);
            if (seconds.signum() < 0) {
                return Optional.empty();
            }
            if (seconds.compareTo(MAX_SECONDS) > 0) {
                seconds = MAX_SECONDS;
            }
            BigDecimal whole = seconds.setScale(0, java.math.RoundingMode.DOWN);
            long nanos = seconds.subtract(whole).movePointRight(9).setScale(0, java.math.RoundingMode.HALF_EVEN)
                    .longValueExact();
            return Optional.of(Duration.ofSeconds(whole.longValueExact(), nanos));
        }
        try {
            Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration delay = Duration.between(now, at);
            return Optional.of(delay.isNegative() ? Duration.ZERO : delay);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
