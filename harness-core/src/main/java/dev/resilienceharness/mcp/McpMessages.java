package dev.resilienceharness.mcp;

import dev.resilienceharness.cassette.CassetteMessages;
import java.util.List;

/** The texts of MCP cassette errors, in one place so that tests and docs can quote them. */
final class McpMessages {

    static final String SHAPE = "an MCP session is {\"version\": 1, \"server\": ..., \"transport\": ...,"
            + " \"exchanges\": [...]}";

    /** How to get a recording that is missing. */
    static final String HINT_RECORD = "Run mvn resilience:record to record the server's answer";

    private McpMessages() {
    }

    static String badName(String what, String name) {
        return "'" + name + "' cannot name an MCP " + what + ": use letters, digits, '.', '_' and '-', not first a dot";
    }

    static String unlistable(String reason) {
        return "the folder cannot be listed: " + reason;
    }

    static String at(String path, String problem) {
        return "at " + path + ": " + problem;
    }

    static String notAnObject(String kind) {
        return "is a JSON " + kind + ", not an object; " + SHAPE;
    }

    static String missing(String key) {
        return "\"" + key + "\" is missing";
    }

    static String wrongType(String expected, String found) {
        return "expected " + expected + ", found a JSON " + found;
    }

    static String badVersion(String found) {
        return "version " + found + " is not one this harness reads (it reads 1); re-record with mvn resilience:record";
    }

    static String badTransport(String found) {
        return "'" + CassetteMessages.abbreviate(found) + "' is not a transport: use stdio or streamable-http";
    }

    static String badSender(String found) {
        return "'" + CassetteMessages.abbreviate(found) + "' is not a sender: use client or server";
    }

    static String badOffset(String found) {
        return "expected a whole number of milliseconds, 0 or more, found " + found;
    }

    static String outOfOrder(long ms, long before) {
        return "offset " + ms + " ms comes before the one at " + before + " ms; notifications are in the order sent";
    }

    static String answerBeforeNotification(long ms, long before) {
        return "the answer at " + ms + " ms comes before a notification at " + before + " ms";
    }

    static final String RESULT_AND_ERROR = "has both \"result\" and \"error\"; an answer is one of them";
    static final String NEITHER = "has neither \"result\" nor \"error\"; an answer is one of them";
    static final String REQUEST_OR_NOTIFICATION = "is neither a request nor a notification: it has both"
            + " \"request\" and \"notification\", or neither";

    static String unknownKey(String key) {
        return "\"" + CassetteMessages.abbreviate(key) + "\" is not a key of an MCP session file";
    }

    static String serverMismatch(String inFile, String folder) {
        return "names server '" + CassetteMessages.abbreviate(inFile) + "' but lies in the folder of server '"
                + folder + "'";
    }

    static String noCanonicalForm(String reason) {
        return "the params have no canonical JSON: " + reason;
    }

    static String miss(String server, McpRequestKey key, String tool, String nearest) {
        return "MCP server '" + server + "' has no recorded answer for " + key.method()
                + (tool == null ? "" : " of tool '" + tool + "'") + " with params fingerprint " + key.fingerprint()
                + "; " + nearest + ". " + HINT_RECORD;
    }

    static String noneOfMethod(String method) {
        return "no " + method + " was recorded for this server";
    }

    static String nearest(String method, String where, String fingerprint, List<String> differing) {
        int shown = Math.min(differing.size(), 3);
        return "the nearest recorded " + method + " is " + where + " (params fingerprint " + fingerprint
                + "), which differs at " + String.join(", ", differing.subList(0, shown))
                + (differing.size() > shown ? " and " + (differing.size() - shown) + " more" : "");
    }
}
