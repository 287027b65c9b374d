package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** The sentences and hints of the checks on streamed answers, in one place so that tests and docs quote them. */
@API(status = INTERNAL, since = "0.1.0")
public final class StreamMessages {

    private StreamMessages() {
    }

    static final String HINT_DUPLICATED = "Drop the partial text of a broken stream before retrying (or keep it and"
            + " emit only what the retry adds beyond it), so that no text is emitted twice";

    /** The fix when the SDK itself retried the broken stream and handed the retry's events to the same handler. */
    static String hintSdkReplayed(String sdk) {
        return SdkLayer.name(sdk) + " retried the broken stream itself and handed the retry's events to the same"
                + " handler: " + Messages.noSdkRetries(sdk) + ", and let your loop retry only while no content event"
                + " has arrived";
    }

    /** {@code 1 time}, {@code 2 times}. */
    static String times(int n) {
        return n + (n == 1 ? " time" : " times");
    }

    static String duplicated(String partial, String end, int arrived, int count) {
        return "its outcome repeats text that had already arrived before the stream was " + how(end) + " after "
                + arrived + (arrived == 1 ? " event" : " events") + ": \"" + excerpt(partial) + "\" appears "
                + times(count) + " in it";
    }

    private static String how(String end) {
        return switch (end) {
            case "stalled" -> "stalled";
            case "error_event" -> "ended by an error event";
            case "malformed_event" -> "broken by a malformed event";
            default -> "cut";
        };
    }

    private static String excerpt(String text) {
        String one = text.replace("\n", "\\n").replace("\"", "'");
        return one.length() > 60 ? one.substring(0, 60) + "…" : one;
    }
}
