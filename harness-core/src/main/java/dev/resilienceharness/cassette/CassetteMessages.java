package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Locale;
import org.apiguardian.api.API;

/** Every sentence a refused cassette file is reported with, in one place so tests and docs can quote them. */
@API(status = INTERNAL, since = "0.1.0")
public final class CassetteMessages {

    private CassetteMessages() {
    }

    /** What to do about a cassette whose content is broken. */
    public static final String HINT_FIX = "Fix the file, or delete it and run mvn resilience:record";
    /** What to do about a cassette in another encoding. */
    public static final String HINT_UTF8 = "Save it as UTF-8, or delete it and run mvn resilience:record";
    /** What to do about a cassette that must not be read at all. */
    public static final String HINT_REPLACE = "Delete it and run mvn resilience:record";
    /** What to do about something in the cassette folder that is not a cassette file. */
    public static final String HINT_REMOVE = "Remove it from the cassette folder";
    /** What to do about a link out of the cassette folder. */
    public static final String HINT_LINK = "Replace the link with the cassette file itself";
    /** What to do about a cassette the build may not read. */
    public static final String HINT_PERMISSION = "Make it readable, or delete it and run mvn resilience:record";
    /** What to do when a cassette vanished while the goal ran. */
    public static final String HINT_AGAIN = "Run the goal again";

    static final String SHAPE = "a cassette is {\"request\": {...}, \"response\": {...}}";

    static final String EMPTY = "is empty; " + SHAPE;
    static final String NO_REQUEST = "has no \"request\"; " + SHAPE;
    static final String NO_RESPONSE = "has no \"response\"; " + SHAPE;

    static String notAnObject(String kind) {
        return "holds a JSON " + kind + ", not an object; " + SHAPE;
    }

    static String requestNotAnObject(String kind) {
        return "has a \"request\" that is a JSON " + kind + ", not an object; " + SHAPE;
    }

    static String opNotAString(String kind) {
        return "\"op\" is " + kind + ", not the name of the op the cassette was recorded for";
    }

    static String timingNotAnObject(String kind) {
        return "has a \"timing\" that is a JSON " + kind + ", not an object like"
                + " {\"first_token_ms\": 420, \"total_ms\": 1800}";
    }

    static String badTiming(String key, String found) {
        return "timing." + key + " is " + found + "; expected a number of milliseconds, 0 or more";
    }

    static String badSamples(String path, String found) {
        return "timing." + path + " is " + found + "; expected a list of {first_token_ms, total_ms} objects";
    }

    static String badRecordedAt(String found) {
        return "recorded_at is " + found + "; expected an ISO-8601 UTC time such as 2026-01-01T00:00:00Z";
    }

    static String streamNotAnObject(String kind) {
        return "has a \"stream\" that is a JSON " + kind + ", not an object like"
                + " {\"events\": [{\"at_ms\": 180, \"data\": \"...\"}]}";
    }

    static String streamUnknownKey(String path) {
        return "has an unknown key " + oneLine(path) + "; a stream has \"events\", each event \"at_ms\", \"data\""
                + " and an optional \"event\"";
    }

    static String streamEventsNotAList(String found) {
        return "stream.events is " + found + "; expected a list of {\"at_ms\": 180, \"data\": \"...\"}";
    }

    static String streamEventNotAnObject(String at, String kind) {
        return at + " is a JSON " + kind + ", not an object like {\"at_ms\": 180, \"data\": \"...\"}";
    }

    static String badEventOffset(String at, String found) {
        return at + ".at_ms is " + found + "; expected a whole number of milliseconds since the request, 0 or more";
    }

    static String eventOutOfOrder(String at, long ms, long before) {
        return at + ".at_ms is " + ms + ", earlier than the event before it (" + before
                + " ms); events are kept in the order they arrived";
    }

    static String badEventData(String at, String found) {
        return at + ".data is " + found + "; expected the event's data as a string (compact JSON or [DONE])";
    }

    static String badEventName(String at, String kind) {
        return at + ".event is a JSON " + kind + "; expected the SSE event name as a string";
    }

    static String notFinite(String path) {
        return oneLine(path) + " holds a number beyond the range of a double, which has no JSON form (infinity)";
    }

    static String badToolSchema(String problem) {
        return "has a tool schema that cannot be used: request." + problem;
    }

    static String noCanonicalForm(String reason) {
        return "has a request with no canonical JSON form: " + reason;
    }

    static String notUtf8(int badByte) {
        return String.format(Locale.ROOT, "is not UTF-8: byte 0x%02x cannot be decoded here", badByte);
    }

    static String invalidJson(String detail) {
        return "is not valid JSON: " + detail;
    }

    static String symlinkOut(java.nio.file.Path folder) {
        return "is a symbolic link leading out of the cassette folder " + folder + "; it was not followed";
    }

    static final String DANGLING = "is a symbolic link to a file that does not exist";
    static final String VANISHED = "does not exist (it was removed while being read)";
    static final String DIRECTORY = "is a folder, not a cassette file";
    static final String NOT_REGULAR = "is not a regular file (a device, pipe or socket)";
    static final String PERMISSION = "cannot be read: permission denied";

    static String tooLarge(long size) {
        return "is " + size + " bytes, over the " + CassetteReader.MAX_BYTES + "-byte (16 MiB) limit for a cassette"
                + " (no real response is that large); it was not read";
    }

    static String unreadable(String reason) {
        return "cannot be read: " + reason;
    }

    /** A value as quoted in a message: at most 40 characters. */
    public static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 20) + "..." + text.substring(text.length() - 10)
                + " (" + text.length() + " characters)";
    }

    /** {@code array}, {@code string}, {@code number}... for a node type. */
    public static String kind(tools.jackson.databind.JsonNode node) {
        return node.getNodeType().toString().toLowerCase(Locale.ROOT);
    }

    /**
     * A JSON syntax error as a person reads it: Jackson's sentence for the common cases rewritten, internal
     * details (source references, feature names, advice to enable lenient features) left out, one line.
     */
    public static String jsonProblem(String jackson) {
        if (jackson == null || jackson.isBlank()) {
            return "the JSON is malformed";
        }
        String m = jackson;
        if (m.startsWith("Unexpected end-of-input")) {
            return "the file ends before the JSON is complete (is it truncated?)";
        }
        if (m.startsWith("Duplicate Object property ")) {
            return "the key " + oneLine(m.substring("Duplicate Object property ".length()))
                    + " appears twice in one object";
        }
        if (m.startsWith("Trailing token")) {
            return "there is more content after the JSON object";
        }
        String limit = dev.resilienceharness.json.Json.limitMet(m);
        if (limit != null) {
            return limit;
        }
        if (m.contains("(non-standard) comment")) {
            return "JSON allows no comments";
        }
        if (m.startsWith("Non-standard token")) {
            return "NaN and Infinity are not JSON numbers";
        }
        // The file's own words are never quoted: it may be a .netrc or a key file named where JSON belongs.
        if (m.startsWith("Unrecognized token")) {
            return "a word that is not a JSON value where one was expected (only true, false and null are words)";
        }
        if (m.startsWith("Unexpected character")) {
            java.util.regex.Matcher code = java.util.regex.Pattern.compile("\\(code (\\d+)").matcher(m);
            int expecting = m.indexOf("): was expecting");
            return "an unexpected character" + (code.find() ? " (code " + code.group(1) + ")" : "")
                    + (expecting >= 0 ? cut(m.substring(expecting + 1)) : " where JSON was expected");
        }
        return cut(m);
    }

    /** Jackson's sentence up to where it starts to talk about its own internals. */
    private static String cut(String m) {
        String s = m;
        for (String marker : new String[] {" (start marker at", " (not recognized as one since", " (consider enabling", " at [Source", " [Source", ": enable `", "; enable `",
                "\n", "\r"}) {
            int i = s.indexOf(marker);
            if (i >= 0) {
                s = s.substring(0, i);
            }
        }
        return oneLine(s.replace("`", "'").strip());
    }

    /** {@code s} on one line (control and line-separator characters shown as '?'), at most 300 characters. */
    static String oneLine(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints().forEach(c -> sb.appendCodePoint(Character.isISOControl(c) || c == 0x2028 || c == 0x2029
                ? '?' : c));
        int limit = 300;
        return sb.codePointCount(0, sb.length()) <= limit ? sb.toString()
                : sb.substring(0, sb.offsetByCodePoints(0, limit)) + "...";
    }
}
