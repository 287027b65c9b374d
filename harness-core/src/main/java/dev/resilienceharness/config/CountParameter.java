package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * A goal's count parameter as the user typed it ({@code -Dresilience.drift.sample=5}): a whole number of at least 1,
 * or, where the parameter allows it, {@code all}. A bad value is refused with a sentence naming the parameter and
 * saying what to write, never with a conversion stack trace.
 *
 * @param property the parameter's property, such as {@code resilience.drift.maxRequests}
 * @param noun     what it counts, in the plural: {@code requests}
 * @param example  a good value, shown in the message
 */
@API(status = INTERNAL, since = "0.1.0")
public record CountParameter(String property, String noun, String example) {

    /** {@code -Dresilience.drift.sample}: all, or how many cassettes. */
    public static final CountParameter DRIFT_SAMPLE = new CountParameter("resilience.drift.sample", "cassettes", "5");

    /** {@code -Dresilience.drift.maxRequests}: the drift check's request budget. */
    public static final CountParameter DRIFT_MAX_REQUESTS =
            new CountParameter("resilience.drift.maxRequests", "requests", "50");

    /** {@code -Dresilience.record.samples}: how many times each request is sent for its timing samples. */
    public static final CountParameter RECORD_SAMPLES =
            new CountParameter("resilience.record.samples", "timing samples", "20");

    /** A value the parameter does not take; its message is the whole error. */
    public static final class Invalid extends Exception {

        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    /**
     * The count {@code value} spells.
     *
     * @throws Invalid for a value that is not a whole number, or is below 1
     */
    public int parse(String value) throws Invalid {
        return count(value, false);
    }

    /**
     * The count {@code value} spells, or {@code null} for {@code all}.
     *
     * @throws Invalid for a value that is neither {@code all} nor a whole number of at least 1
     */
    public Integer parseOrAll(String value) throws Invalid {
        if (value != null && value.strip().equals("all")) {
            return null;
        }
        return count(value, true);
    }

    private int count(String value, boolean allowsAll) throws Invalid {
        String v = value == null ? "" : value.strip();
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new Invalid(message(value, v.matches("[+-]?\\d+") ? "too large" : "not a whole number", allowsAll));
        }
        if (n < 1) {
            throw new Invalid(message(value, n == 0 ? "zero" : "negative", allowsAll));
        }
        if (n > Integer.MAX_VALUE) {
            throw new Invalid(message(value, "too large", allowsAll));
        }
        return (int) n;
    }

    /** {@code -Dresilience.drift.maxRequests=-3: negative; write a whole number of requests of at least 1, …}. */
    String message(String value, String problem, boolean allowsAll) {
        return "-D" + property + "=" + (value == null ? "" : value) + ": " + problem + "; write "
                + (allowsAll ? "all, or " : "") + "a whole number of " + noun + " of at least 1, such as -D"
                + property + "=" + example;
    }
}
