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
 * <p>Instances are immutable and thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Redactor {

    private static final JsonMapper MAPPER =
            JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Path RESCANNED = Path.of("redacted-cassette.json");

    private final Allowlist allowlist;
    private final SecretScanner scanner;

    /** A redactor that replaces everything the scanner finds. */
    public Redactor() {
        this(Allowlist.NONE);
    }

    /** A redactor that keeps what {@code allowlist} accepts. */
    public Redactor(Allowlist allowlist) {
        this(allowlist, new SecretScanner(allowlist));
    }

    /** A redactor whose result is checked by {@code rescan}; tests use a stricter one to see it fail closed. */
    Redactor(Allowlist allowlist, SecretScanner rescan) {
        this.allowlist = Objects.requireNonNull(allowlist, "allowlist");
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
                    out.set(text(name, false), node(property.getValue(), name, depth));
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
            return text(value, KeyNames.isKeyLike(holder));
        }

        /** {@code text} with every secret the inspector finds replaced by its placeholder. */
        private String text(String text, boolean keyLikeValue) {
            char[] chars = text.toCharArray();
            List<Hit> hits = new ArrayList<>();
            for (Hit hit : inspector.inspect(chars, 0, chars.length, keyLikeValue)) {
                if (!allowlist.allows(hit.secret(), Finding.fingerprint(hit.rule(), hit.secret()))) {
                    hits.add(hit);
                }
            }
            if (hits.isEmpty()) {
                return text;
            }
            hits.sort(Comparator.comparingInt(Hit::start).thenComparing(Comparator.comparingInt(Hit::end).reversed()));
            StringBuilder out = new StringBuilder(text.length());
            int done = 0;
            int k = 0;
            while (k < hits.size()) {
                Hit first = hits.get(k);
                int end = first.end();
                // overlapping spans (a key inside Basic credentials, say) become one placeholder
                while (++k < hits.size() && hits.get(k).start() < end) {
                    end = Math.max(end, hits.get(k).end());
                }
                out.append(text, done, first.start()).append(Placeholder.of(first.rule(), first.secret()));
                done = end;
            }
            return out.append(text, done, text.length()).toString();
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
