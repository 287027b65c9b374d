package dev.resilienceharness.secrets;

/**
 * Values that look random but are ordinary cassette content, so the high-entropy rule leaves them alone:
 * completion, message, tool-call, request and run ids ({@code chatcmpl-...}, {@code call_...},
 * {@code req_...}), {@code system_fingerprint} values ({@code fp_44709d6fcb}), UUIDs, SHA-1/SHA-256/SHA-512 hex
 * digests, {@code data:} URIs (base64 images) and redaction placeholders.
 */
final class SafeValues {

    private static final String[] ID_PREFIXES = {"chatcmpl-", "cmpl-", "call_", "fp_", "req_", "msg_", "toolu_",
        "resp_", "run_", "asst_", "thread_", "file-", "batch_", "gen-", "evt_", "step_", "ft-", "ftjob-",
        "modr-"};
    private static final int DATA_URI_HEADER = 128;

    private SafeValues() {
    }

    /** Whether {@code value} is a known-safe shape. */
    static boolean isKnownSafe(String value) {
        if (value.contains(Placeholder.PREFIX) || value.startsWith("data:")) {
            return true;
        }
        for (String prefix : ID_PREFIXES) {
            if (value.startsWith(prefix)) {
                return true;
            }
        }
        return isUuid(value) || isDigest(value);
    }

    /** Whether {@code a[from, to)} is a {@code data:...;base64,...} URI, whose payload is opaque. */
    static boolean isBase64DataUri(char[] a, int from, int to) {
        if (!Chars.startsWith(a, from, to, "data:")) {
            return false;
        }
        int limit = Math.min(to, from + DATA_URI_HEADER);
        for (int i = from + 5; i < limit; i++) {
            if (a[i] == ',') {
                return i - from >= 12 && Chars.startsWith(a, i - 7, to, ";base64,");
            }
        }
        return false;
    }

    static boolean isUuid(String v) {
        if (v.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = v.charAt(i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : !Chars.isHex(c)) {
                return false;
            }
        }
        return true;
    }

    /** A SHA-1, SHA-256 or SHA-512 hex digest. */
    static boolean isDigest(String v) {
        int n = v.length();
        if (n != 40 && n != 64 && n != 128) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!Chars.isHex(v.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
