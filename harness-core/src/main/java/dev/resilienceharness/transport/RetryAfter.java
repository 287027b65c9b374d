package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Reads a {@code Retry-After} header: a number of seconds (a fraction allowed) or an HTTP-date.
 *
 * <p>Anything else, or a negative number, counts as absent (docs faults.md). An HTTP-date in the past
 * states a delay of zero.
 */
@API(status = STABLE, since = "0.1.0")
public final class RetryAfter {

    private static final Pattern SECONDS = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");
    /** Longer than any provider states; keeps the arithmetic far from overflow. */
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(365L * 24 * 3600 * 1000);

    private RetryAfter() {
    }

    /** What a header's text states, independent of the clock: a delay, a point in time, or nothing. */
    private record Stated(Duration delay, Instant at) {
        static final Stated NOTHING = new Stated(null, null);
    }

    /** The most header texts remembered; a fault plan names only a few. */
    private static final int REMEMBERED = 4096;
    private static final Map<String, Stated> STATED = new ConcurrentHashMap<>();

    /** The delay stated by {@code header} with the clock at {@code now}, or empty when it states none. */
    public static Optional<Duration> parse(String header, Instant now) {
        if (header == null) {
            return Optional.empty();
        }
        // Every quota rejection of a run reads its header again: the text is read once, the clock applied each time.
        Stated stated = STATED.get(header);
        if (stated == null) {
            stated = read(header.strip());
            if (STATED.size() < REMEMBERED) {
                STATED.put(header, stated);
            }
        }
        if (stated.delay() != null) {
            return Optional.of(stated.delay());
        }
        if (stated.at() != null) {
            Duration delay = Duration.between(now, stated.at());
            return Optional.of(delay.isNegative() ? Duration.ZERO : delay);
        }
        return Optional.empty();
    }

    private static Stated read(String text) {
        if (SECONDS.matcher(text).matches()) {
            BigDecimal seconds = new BigDecimal(text);
            if (seconds.signum() < 0) {
                return Stated.NOTHING;
            }
            if (seconds.compareTo(MAX_SECONDS) > 0) {
                seconds = MAX_SECONDS;
            }
            BigDecimal whole = seconds.setScale(0, java.math.RoundingMode.DOWN);
            long nanos = seconds.subtract(whole).movePointRight(9).setScale(0, java.math.RoundingMode.HALF_EVEN)
                    .longValueExact();
            return new Stated(Duration.ofSeconds(whole.longValueExact(), nanos), null);
        }
        try {
            return new Stated(null, ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        } catch (DateTimeParseException e) {
            return Stated.NOTHING;
        }
    }
}
