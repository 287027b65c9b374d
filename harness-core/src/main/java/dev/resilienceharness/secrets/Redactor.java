package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes a cassette safe to write (docs recording.md), as the record goal does before anything touches disk:
 * credential headers are removed from every {@code headers} object, and every other secret the
 * {@link SecretScanner} would report is replaced inside its string by {@code [REDACTED:<rule-id>:<hash8>]},
 * hash8 being the first eight hex digits of the finding's fingerprint. Secrets in JSON carried by a string are
 * replaced in that JSON, which is then written back compactly; secrets in percent-encoded URLs and in
 * {@code Basic} credentials are replaced with their whole encoded form. The same input always gives the same
 * output. The result is scanned again and refused when anything remains (fail closed).
 *
 * <p>A team's own rules ({@link GitleaksRules}, its {@code .gitleaks.toml}) are applied beside the built-in ones,
 * with their allowlists, in the same pass over each string value; their secrets become
 * {@code [REDACTED:<team-rule-id>:<hash8>]}. The built-in rules always run here, even when the team's file
 * replaces them for the scan: a recording never keeps a key either would find. A team rule limited to some paths
 * runs on every recording, which has no final path yet.
 *
 * <p>Instances are immutable and thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Redactor {

    private static final JsonMapper MAPPER =
            JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Path RESCANNED = Path.of("redacted-cassette.json");

    private final Allowlist allowlist;
    private final GitleaksRules teamRules;
    private final SecretScanner scanner;

    /** A redactor that replaces everything the scanner finds. */
    public Redactor() {
        this(Allowlist.NONE);
    }

    /** A redactor that keeps what {@code allowlist} accepts. */
    public Redactor(Allowlist allowlist) {
        this(allowlist, GitleaksRules.NONE);
    }

    /** A redactor that also replaces what a team's own rules find, and keeps what {@code allowlist} accepts. */
    public Redactor(Allowlist allowlist, GitleaksRules teamRules) {
        this(allowlist, teamRules, new SecretScanner(allowlist, teamRules, true));
    }

    /** A redactor whose result is checked by {@code rescan}; tests use a stricter one to see it fail closed. */
    Redactor(Allowlist allowlist, SecretScanner rescan) {
        this(allowlist, GitleaksRules.NONE, rescan);
    }

    private Redactor(Allowlist allowlist, GitleaksRules teamRules, SecretScanner rescan) {
        this.allowlist = Objects.requireNonNull(allowlist, "allowlist");
        this.teamRules = Objects.requireNonNull(teamRules, "teamRules");
        this.scanner = Objects.requireNonNull(rescan, "rescan");
    }

    /**
     * A redacted copy of {@code cassette}; the argument is not changed.
     *
     * @throws RedactionFailedException when a re-scan of the copy still finds secrets; nothing should be written
     */
    public ObjectNode redact(ObjectNode cassette) throws RedactionFailedException {
        ObjectNode redacted = (ObjectNode) new Walk().node(cassette, null, 0);
        List<Finding> remaining = scanner.scan(RESCANNED, redacted);
        if (!remaining.isEmpty()) {
            throw new RedactionFailedException(remaining);
        }
        return redacted;
    }

    /** A span of a string to replace by the placeholder of {@code secret}, found by the rule {@code ruleId}. */
    private record Cut(String ruleId, String secret, int start, int end) {
    }

    /** One redaction pass; owns the string inspector it reuses. */
    private final class Walk {

        private final StringInspector inspector = new StringInspector();

        /** A redacted copy of {@code node}, held under the field {@code holder} (through any arrays). */
        JsonNode node(JsonNode node, String holder, int depth) {
            if (node.isObject()) {
                boolean headers = CredentialHeaders.isHeaders(holder);
                ObjectNode out = NODES.objectNode();
                for (Map.Entry<String, JsonNode> property : node.properties()) {
                    String name = property.getKey();
                    if (headers && CredentialHeaders.isCredential(name)) {
                        continue;
                    }
                    out.set(text(name, false, false), node(property.getValue(), name, depth));
                }
                return out;
            }
            if (node.isArray()) {
                ArrayNode out = NODES.arrayNode();
                for (JsonNode element : node) {
                    out.add(node(element, holder, depth));
                }
                return out;
            }
            if (node.isString()) {
                String value = node.asString();
                String redacted = string(value, holder, depth);
                return redacted.equals(value) ? node : NODES.stringNode(redacted);
            }
            return node.deepCopy();
        }

        /** A string value: JSON it carries is redacted as JSON, anything else as text. */
        private String string(String value, String holder, int depth) {
            if (depth < EmbeddedJson.MAX_DEPTH && EmbeddedJson.looksLike(value)) {
                JsonNode carried = parse(value);
                if (carried != null) {
                    JsonNode redacted = node(carried, holder, depth + 1);
                    return redacted.equals(carried) ? value : MAPPER.writeValueAsString(redacted);
                }
            }
            return text(value, KeyNames.isKeyLike(holder), true);
        }

        /**
         * {@code text} with every secret the inspector finds replaced by its placeholder, and with {@code value}
         * (a string value, not a field name: the scan runs a team's rules on values only) every secret of a team's
         * rule too.
         */
        private String text(String text, boolean keyLikeValue, boolean value) {
            char[] chars = text.toCharArray();
            List<Cut> cuts = new ArrayList<>();
            for (Hit hit : inspector.inspect(chars, 0, chars.length, keyLikeValue)) {
                cut(cuts, hit.rule().id(), hit.secret(), hit.start(), hit.end());
            }
            if (value && !teamRules.isEmpty()) {
                for (GitleaksRules.Match m : teamRules.find(RESCANNED, text, true)) {
                    cut(cuts, m.ruleId(), m.secret(), m.start(), m.end());
                }
            }
            if (cuts.isEmpty()) {
                return text;
            }
            cuts.sort(Comparator.comparingInt(Cut::start).thenComparing(Comparator.comparingInt(Cut::end).reversed()));
            StringBuilder out = new StringBuilder(text.length());
            int done = 0;
            int k = 0;
            while (k < cuts.size()) {
                Cut first = cuts.get(k);
                int end = first.end();
                // overlapping spans (a key inside Basic credentials, say) become one placeholder
                while (++k < cuts.size() && cuts.get(k).start() < end) {
                    end = Math.max(end, cuts.get(k).end());
                }
                out.append(text, done, first.start()).append(Placeholder.of(first.ruleId(), first.secret()));
                done = end;
            }
            return out.append(text, done, text.length()).toString();
        }

        /** Adds the cut of a secret the allowlist does not accept. */
        private void cut(List<Cut> cuts, String ruleId, String secret, int start, int end) {
            if (!allowlist.allows(secret, Finding.fingerprint(ruleId, secret))) {
                cuts.add(new Cut(ruleId, secret, start, end));
            }
        }

        private JsonNode parse(String json) {
            try {
                JsonNode node = MAPPER.readTree(json);
                return node != null && node.isContainer() ? node : null;
            } catch (JacksonException e) {
                return null;
            }
        }
    }
}
