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
}
