package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import com.google.re2j.Pattern;
import org.apiguardian.api.API;

/**
 * What {@code redaction.allow} accepts: finding fingerprints (entries of exactly 16 lowercase hex digits) and
 * regexes that must match a whole secret (Java syntax without lookaround or backreferences, matched by
 * RE2/J in linear time, e.g. {@code .*@example\.com}). Accepted secrets are
 * neither reported nor redacted. The regexes run only on secrets, never on whole files, so their cost stays
 * small.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Allowlist {

    /** Accepts nothing. */
    public static final Allowlist NONE = new Allowlist(Set.of(), List.of());

    private final Set<String> fingerprints;
    private final List<Pattern> patterns;

    private Allowlist(Set<String> fingerprints, List<Pattern> patterns) {
        this.fingerprints = Set.copyOf(fingerprints);
        this.patterns = List.copyOf(patterns);
    }

    /**
     * The allow-list for the entries of {@code redaction.allow}.
     *
     * @throws IllegalArgumentException naming the entry ({@code redaction.allow[2]}) when one is not a valid
     *                                  regex
     */
    public static Allowlist of(List<String> entries) {
        Set<String> fingerprints = new HashSet<>();
        List<Pattern> patterns = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i);
            if (Finding.isFingerprint(entry)) {
                fingerprints.add(entry);
                continue;
            }
            try {
                // Java's own parser first, for its precise account of a syntax error.
                java.util.regex.Pattern.compile(entry);
            } catch (java.util.regex.PatternSyntaxException e) {
                throw new IllegalArgumentException("redaction.allow[" + i + "] is neither a finding fingerprint "
                        + "(16 lowercase hex digits) nor a valid regex: " + e.getDescription()
                        + " at index " + e.getIndex(), e);
            }
            try {
                // Matched with RE2/J, in time linear in the secret, whatever the yaml's regex is.
                patterns.add(Pattern.compile(entry));
            } catch (com.google.re2j.PatternSyntaxException e) {
                throw new IllegalArgumentException("redaction.allow[" + i + "] is a regex the linear-time engine"
                        + " cannot run (" + e.getDescription() + "; lookaround and backreferences are not supported)",
                        e);
            }
        }
        return new Allowlist(fingerprints, patterns);
    }

    /** Whether a secret with this fingerprint, or this secret itself, is accepted. */
    public boolean allows(String secret, String fingerprint) {
        if (fingerprints.contains(fingerprint)) {
            return true;
        }
        for (Pattern p : patterns) {
            if (p.matcher(secret).matches()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the finding's fingerprint is listed (regexes need the secret, which a finding does not keep). */
    public boolean allows(Finding finding) {
        return fingerprints.contains(finding.fingerprint());
    }

    /** Whether nothing is accepted. */
    public boolean isEmpty() {
        return fingerprints.isEmpty() && patterns.isEmpty();
    }
}
