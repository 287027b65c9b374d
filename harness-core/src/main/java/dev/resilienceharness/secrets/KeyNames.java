package dev.resilienceharness.secrets;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Names under which a random-looking value is a secret: {@code api_key}, {@code apiKey}, {@code x-api-key},
 * {@code secret}, {@code client_secret}, {@code token}, {@code auth_token}, {@code password}, {@code passwd},
 * {@code access_key}, {@code private_key}, {@code auth}, {@code authorization}, {@code credentials},
 * {@code creds}, in any case and with {@code -}, {@code _} or camelCase between the words. A name whose last
 * word describes the secret rather than holding it ({@code token_type}, {@code api_key_env},
 * {@code password_hash}, {@code max_tokens}) is not key-like, and neither is one that names a value meant to be
 * seen: anti-forgery tokens ({@code csrf_token}, {@code _csrf}, {@code XSRF-TOKEN}, {@code authenticity_token})
 * and public keys ({@code public_key}, {@code publishable_key}).
 */
final class KeyNames {

    /** Whole words that make a name key-like wherever they occur in it. */
    private static final Set<String> WORDS = Set.of("apikey", "secret", "token", "password", "passwd", "auth",
            "authorization", "accesskey", "privatekey", "clientsecret", "secretkey", "credential", "credentials",
            "cred", "creds");

    /** Endings of a single word that make it key-like ({@code accesstoken}, {@code dbpassword}). */
    private static final String[] ENDINGS = {"token", "secret", "password", "passwd", "apikey", "accesskey",
        "privatekey", "credentials", "creds"};

    /** Pairs of consecutive words that make a name key-like. */
    private static final String[][] PAIRS = {{"api", "key"}, {"access", "key"}, {"private", "key"},
        {"secret", "key"}};

    /** Last words that say the value describes a secret rather than being one. */
    private static final Set<String> DESCRIPTIVE = Set.of("type", "types", "count", "counts", "id", "ids", "name",
            "names", "url", "uri", "urls", "endpoint", "env", "var", "variable", "file", "path", "length", "len",
            "limit", "limits", "expires", "expiry", "expiration", "exp", "at", "in", "ttl", "usage", "hint",
            "header", "headers", "scheme", "method", "mode", "format", "version", "field", "label", "required",
            "enabled", "prefix", "suffix", "hash", "sha", "digest", "fingerprint", "provider", "location", "policy",
            "ref", "source", "kind", "status", "sha1", "sha256", "sha512", "md5", "checksum");

    /** Words that say the value is meant to be seen: public keys, and tokens against request forgery. */
    private static final Set<String> PUBLIC = Set.of("public", "publishable", "authenticity", "csrf", "xsrf");

    private KeyNames() {
    }

    /** Whether a value under {@code name} is checked by the high-entropy rule. */
    static boolean isKeyLike(String name) {
        if (name == null || name.isEmpty() || name.length() > 100 || !mayBeKeyLike(name)) {
            return false;
        }
        List<String> words = words(name);
        if (words.isEmpty() || DESCRIPTIVE.contains(words.get(words.size() - 1))) {
            return false;
        }
        for (String w : words) {
            // "csrfmiddlewaretoken", "csrftoken": the forgery guard may be glued to the word it guards
            if (PUBLIC.contains(w) || w.startsWith("csrf") || w.startsWith("xsrf")) {
                return false;
            }
        }
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (WORDS.contains(w)) {
                return true;
            }
            for (String ending : ENDINGS) {
                if (w.endsWith(ending)) {
                    return true;
                }
            }
            if (i + 1 < words.size()) {
                for (String[] pair : PAIRS) {
                    if (pair[0].equals(w) && pair[1].equals(words.get(i + 1))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** A cheap test that rules out most names before they are split into words. */
    private static boolean mayBeKeyLike(String name) {
        return mayBeKeyLike(name.toCharArray(), 0, name.length());
    }

    /**
     * Whether the name {@code a[from, to)} contains {@code key}, {@code secret}, {@code token}, {@code pass},
     * {@code auth} or {@code cred} in any case: every key-like name does, so anything else is ruled out without
     * allocating.
     */
    static boolean mayBeKeyLike(char[] a, int from, int to) {
        if (to - from < 3 || to - from > 100) {
            return false;
        }
        for (int i = from; i + 3 <= to; i++) {
            if (at(a, i, to, "key") || at(a, i, to, "secret") || at(a, i, to, "token") || at(a, i, to, "pass")
                    || at(a, i, to, "auth") || at(a, i, to, "cred")) {
                return true;
            }
        }
        return false;
    }

    private static boolean at(char[] a, int i, int to, String lower) {
        if (to - i < lower.length()) {
            return false;
        }
        for (int k = 0; k < lower.length(); k++) {
            if ((a[i + k] | 0x20) != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The lower-case words of a name split at non-alphanumerics and camelCase boundaries. */
    static List<String> words(String name) {
        List<String> words = new ArrayList<>();
        int n = name.length();
        int start = -1;
        for (int i = 0; i <= n; i++) {
            char c = i < n ? name.charAt(i) : ' ';
            boolean part = Chars.isAlnum(c);
            boolean boundary = part && start >= 0 && i > start && isCamelBoundary(name, i);
            if (start >= 0 && (!part || boundary)) {
                words.add(name.substring(start, i).toLowerCase(Locale.ROOT));
                start = -1;
            }
            if (part && start < 0) {
                start = i;
            }
        }
        return words;
    }

    private static boolean isCamelBoundary(String s, int i) {
        char prev = s.charAt(i - 1);
        char c = s.charAt(i);
        if (Chars.isLower(prev) && Chars.isUpper(c)) {
            return true;
        }
        // "APIKey": the last capital of a run of capitals starts the next word
        return Chars.isUpper(prev) && Chars.isUpper(c) && i + 1 < s.length() && Chars.isLower(s.charAt(i + 1));
    }
}
