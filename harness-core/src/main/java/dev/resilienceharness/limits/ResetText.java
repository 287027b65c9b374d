package dev.resilienceharness.limits;

/** A duration as OpenAI writes its {@code x-ratelimit-reset-*} headers: {@code 20ms}, {@code 1s}, {@code 6m0s}. */
final class ResetText {

    private ResetText() {
    }

    static String of(long nanos) {
        long ms = (Math.max(0, nanos) + 999_999) / 1_000_000;
        if (ms < 1000) {
            return ms + "ms";
        }
        long minutes = ms / 60_000;
        String seconds = Limiter.seconds(ms % 60_000);
        return minutes > 0 ? minutes + "m" + seconds + "s" : seconds + "s";
    }

    /** The nanoseconds a text written by {@link #of} stands for: {@code 6m0.5s} is 360,500 ms. */
    static long nanos(String text) {
        if (text.endsWith("ms")) {
            return Long.parseLong(text.substring(0, text.length() - 2)) * 1_000_000L;
        }
        int m = text.indexOf('m');
        long minutes = m < 0 ? 0 : Long.parseLong(text.substring(0, m));
        java.math.BigDecimal seconds = new java.math.BigDecimal(text.substring(m + 1, text.length() - 1));
        return minutes * 60_000_000_000L + seconds.movePointRight(9).longValueExact();
    }
}
