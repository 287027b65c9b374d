package dev.resilienceharness.secrets;

import java.util.Set;

/**
 * Values that look random but are ordinary cassette content, so the high-entropy rule leaves them alone:
 * completion, message, tool-call, request and run ids ({@code chatcmpl-...}, {@code call_...},
 * {@code req_...}), {@code system_fingerprint} values ({@code fp_44709d6fcb}), Stripe publishable keys
 * ({@code pk_live_...}, {@code pk_test_...}: they go to browsers by design), UUIDs, SHA-1/SHA-256/SHA-512 hex
 * digests, {@code data:} URIs (base64 images) and redaction placeholders. UUIDs and digests are only safe where
 * the name does not say otherwise: under a key-like name they are judged as keys (see {@link HighEntropy}),
 * except the digests of empty input, which are constants.
 */
final class SafeValues {

    private static final String[] ID_PREFIXES = {"chatcmpl-", "cmpl-", "call_", "fp_", "req_", "msg_", "toolu_",
        "resp_", "run_", "asst_", "thread_", "file-", "batch_", "gen-", "evt_", "step_", "ft-", "ftjob-",
        "modr-", "pk_live_", "pk_test_"};

    /** The MD5, SHA-1, SHA-256 and SHA-512 digests of zero bytes. */
    private static final Set<String> EMPTY_DIGESTS = Set.of("d41d8cd98f00b204e9800998ecf8427e",
            "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                    + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e");
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

    /** Whether {@code v} is the digest of empty input (MD5, SHA-1, SHA-256 or SHA-512, lower-case hex). */
    static boolean isEmptyDigest(String v) {
        return EMPTY_DIGESTS.contains(v);
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
