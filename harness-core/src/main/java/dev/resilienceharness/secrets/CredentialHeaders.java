package dev.resilienceharness.secrets;

import java.util.Locale;
import java.util.Set;

/**
 * HTTP headers that carry credentials whatever their value, and the {@code headers} objects they live in.
 * Names compare case-insensitively, as HTTP header names do.
 */
final class CredentialHeaders {

    private static final Set<String> NAMES = Set.of("authorization", "proxy-authorization", "api-key",
            "x-api-key", "x-goog-api-key", "x-amz-security-token", "cookie", "set-cookie");

    private CredentialHeaders() {
    }

    /** Whether a header named {@code name} is a credential. */
    static boolean isCredential(String name) {
        return name != null && name.length() <= 20 && NAMES.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Whether an object held under {@code name} is a set of HTTP headers. */
    static boolean isHeaders(String name) {
        return "headers".equalsIgnoreCase(name);
    }
}
