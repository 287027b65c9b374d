package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Finds secrets in cassettes by reading them as JSON (docs secrets.md): every key and every string value is
 * scanned after the parser has decoded its escapes ({@code \u0073k-}, {@code \/}); JSON carried in a string
 * (tool-call {@code arguments}) is parsed and scanned with its own path; URLs and query strings are
 * percent-decoded; {@code Basic} credentials are base64-decoded; credential headers are reported whatever their
 * value; base64 and hex runs that decode to text are read again. A team's own rules ({@link GitleaksRules},
 * from its {@code .gitleaks.toml}) run on every string beside the built-in ones, or instead of them. Values
 * accepted by the {@link Allowlist} are left out.
 *
 * <p><b>Linear time.</b> The file is read once by Jackson's streaming parser, which is linear. Each string is
 * read by {@link StringInspector}, linear in the string (see {@link TokenScanner} for the argument); JSON inside
 * a string is parsed again, at most four levels deep. No backtracking regular expression touches the content
 * (allow-list regexes see only found secrets; a team's rules run on RE2/J, linear in the string whatever the
 * pattern), so long single-line JSON cannot trigger catastrophic backtracking. Positions and paths are worked out only for findings.
 *
 * <p>Instances are thread-safe; each scan has its own state, and what a field name implies is remembered across scans.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class SecretScanner {

    /** The cassette reader's limits: a file it reads is scanned, one it refuses is refused for the same reason. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(dev.resilienceharness.json.Json.READ_CONSTRAINTS).build();
    /** Built on first use: only a scan of an in-memory tree prints one. */
    private static final class Mapper {
        static final JsonMapper MAPPER = JsonMapper.builder().build();
    }
    private static final String WHAT_TO_DO = "; fix the file or re-record it with `mvn resilience:record`";

    /** Bounds {@link #knownNames}: a file may hold any number of distinct names. */
    private static final int MAX_KNOWN_NAMES = 4096;

    private final Allowlist allowlist;
    /** The team's own rules ({@code .gitleaks.toml}), run on every string beside the built-in ones. */
    private final GitleaksRules teamRules;
    /** Whether the built-in rules run: unless a team's file replaces them (no {@code [extend] useDefault}). */
    private final boolean builtIn;
    /** What each field name implies, shared by every scan: the same few dozen names recur in every cassette. */
    private final Map<String, Name> knownNames = new ConcurrentHashMap<>();

    /** A scanner that reports everything it finds. */
    public SecretScanner() {
        this(Allowlist.NONE);
    }

    /** A scanner that leaves out what {@code allowlist} accepts. */
    public SecretScanner(Allowlist allowlist) {
        this(allowlist, GitleaksRules.NONE);
    }

    /**
     * A scanner that also runs a team's own rules, and leaves out what {@code allowlist} accepts; the built-in
     * rules run too only when the team's file says {@code [extend] useDefault = true}, as gitleaks does.
     */
    public SecretScanner(Allowlist allowlist, GitleaksRules teamRules) {
        this(allowlist, teamRules, teamRules.useDefault());
    }

    /** A scanner running {@code teamRules}, and the built-in rules when {@code builtIn}; redaction runs both. */
    SecretScanner(Allowlist allowlist, GitleaksRules teamRules, boolean builtIn) {
        this.allowlist = Objects.requireNonNull(allowlist, "allowlist");
        this.teamRules = Objects.requireNonNull(teamRules, "teamRules");
        this.builtIn = builtIn;
    }

    /**
     * The secrets in a cassette file's content, in document order.
     *
     * @param file    the file's path, as it should appear in findings (relative paths read best)
     * @param content the file's bytes (UTF-8)
     * @throws MalformedJsonException when the content is not one JSON value; names the file, line and column
     */
    public List<Finding> scan(Path file, byte[] content) throws MalformedJsonException {
        Objects.requireNonNull(file, "file");
        Scan scan = new Scan(file, content);
        try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), content)) {
            scan.document(parser);
        } catch (JacksonException e) {
            throw scan.malformed(e);
        }
        return List.copyOf(scan.findings);
    }

    /**
     * The same findings as {@link #scan(Path, byte[])}, where {@code parsed} is the tree a strict reader (one that
     * refuses a repeated key) has already read from {@code content}, or {@code null}. The tree is walked first, by the
     * same rules and without parsing the bytes again (nor a parser over the tree: the walk knows the field each string
     * sits under as it goes); only a file in which that walk finds something is scanned from its bytes, for the line
     * and column of each finding.
     */
    public List<Finding> scan(Path file, byte[] content, JsonNode parsed) throws MalformedJsonException {
        if (parsed != null) {
            Scan walk = new Scan(file, null);
            walk.tree(parsed, null, null);
            if (walk.findings.isEmpty()) {
                return List.of();
            }
        }
        return scan(file, content);
    }

    /**
     * The secrets in an in-memory cassette, such as one about to be written. Lines and columns refer to the
     * tree's pretty-printed form, the shape cassettes are written in.
     */
    public List<Finding> scan(Path file, JsonNode tree) {
        byte[] content = Mapper.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(tree);
        try {
            return scan(file, content);
        } catch (MalformedJsonException e) {
            throw new IllegalStateException("Jackson wrote JSON it cannot read back: " + e.getMessage(), e);
        }
    }

    /** Where a string sits: its position in the file and its JSON path. */
    private record Site(int line, int column, String path) {
    }

    /** The site of a finding in a walk of a tree, which only says whether there is any. */
    private static final Site NOWHERE = new Site(0, 0, JsonPath.ROOT);

    /**
     * The surroundings of the document being walked: the file itself, or JSON carried in one of its strings.
     * Where the carrying string sits is worked out only when a finding inside needs it.
     */
    private static final class Embedding {

        /** The name of the field holding the document's root, or {@code null} for the file. */
        final String holder;
        /** 0 for the file, n for JSON n strings deep. */
        final int depth;
        /** The parser standing on the carrying string, or {@code null} for the file and in a walk of a tree. */
        final JsonParser carrier;
        final Embedding outer;
        private Site carrierSite;

        Embedding(String holder, int depth, JsonParser carrier, Embedding outer) {
            this.holder = holder;
            this.depth = depth;
            this.carrier = carrier;
            this.outer = outer;
        }
    }

    /** What a field name implies, worked out once per distinct name (see {@link #knownNames}). */
    private record Name(boolean keyLike, boolean credentialHeader, boolean holdsSecret) {

        static final Name NONE = new Name(false, false, false);
    }

    /** The state of one scan of one file. */
    private final class Scan {

        private final Path file;
        private final byte[] content;
        /** Where findings sit in {@code content}; {@code null} for a walk of a tree, whose findings have no site. */
        private final SourcePosition position;
        private final StringInspector values = new StringInspector();
        private final StringInspector names = new StringInspector();
        private final Map<String, Name> nameInfo = new HashMap<>();
        private final Collection<Finding> findings = new LinkedHashSet<>();
        private final Embedding top = new Embedding(null, 0, null, null);
        /** Where a walk of a tree reads each string's characters. */
        private char[] chars = new char[256];

        Scan(Path file, byte[] content) {
            this.file = file;
            this.content = content;
            this.position = content == null ? null : new SourcePosition(content);
        }

        void document(JsonParser parser) throws MalformedJsonException {
            int roots = 0;
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                if (roots > 0) {
                    throw malformed(parser.currentTokenLocation(), "more than one top-level JSON value");
                }
                token(parser, token, top, findings);
                if (isValueEnd(parser, token)) {
                    roots++;
                }
            }
            if (roots == 0) {
                throw new MalformedJsonException(file, 0, 0, "empty: no JSON value" + WHAT_TO_DO);
            }
        }

        private void token(JsonParser parser, JsonToken token, Embedding embedding, Collection<Finding> out) {
            if (token == JsonToken.PROPERTY_NAME) {
                name(parser.currentName(), parser, embedding, out);
            } else if (token == JsonToken.VALUE_STRING) {
                value(parser, embedding, out);
            }
        }

        private void name(String name, JsonParser parser, Embedding embedding, Collection<Finding> out) {
            if (!builtIn || !info(name).holdsSecret()) {
                return;
            }
            List<Hit> hits = List.copyOf(names.inspect(name.toCharArray(), 0, name.length(), false));
            Site site = site(parser, embedding);
            for (Hit hit : hits) {
                report(out, site, hit.rule(), hit.secret());
            }
        }

        private void value(JsonParser parser, Embedding embedding, Collection<Finding> out) {
            TokenStreamContext owner = parser.streamReadContext();
            while (owner.inArray()) {
                owner = owner.getParent();
            }
            String field = owner.inObject() ? owner.currentName() : embedding.holder;
            Name name = nameOf(field);
            boolean credential = name.credentialHeader() && owner.inObject() && isHeaders(owner, embedding);
            int from = parser.getStringOffset();
            string(parser.getStringCharacters(), from, from + parser.getStringLength(), field, name, credential, parser,
                    embedding, out);
        }

        /**
         * Walks a parsed tree by the rules {@link #document} applies to the tokens of its text: {@code field} is the
         * name the node sits under in the nearest object around it (arrays between are passed through), {@code null}
         * when there is none, and {@code holder} the name that object sits under, {@code null} at the top. Only a walk
         * of a tree calls it, whose findings have no site.
         */
        void tree(JsonNode node, String field, String holder) {
            if (node.isString()) {
                Name name = nameOf(field);
                boolean credential = name.credentialHeader() && CredentialHeaders.isHeaders(holder);
                String text = node.stringValue();
                if (chars.length < text.length()) {
                    chars = new char[Math.max(text.length(), 2 * chars.length)];
                }
                text.getChars(0, text.length(), chars, 0);
                string(chars, 0, text.length(), field, name, credential, null, top, findings);
            } else if (node.isObject()) {
                for (Map.Entry<String, JsonNode> property : node.properties()) {
                    name(property.getKey(), null, top, findings);
                    tree(property.getValue(), property.getKey(), field);
                }
            } else if (node.isArray()) {
                for (JsonNode element : node.values()) {
                    tree(element, field, holder);
                }
            }
        }

        /**
         * Inspects a string value held in {@code buffer[from, to)} under {@code field}, which implies {@code name};
         * {@code parser} stands on it, or is {@code null} in a walk of a tree (which needs no site).
         */
        private void string(char[] buffer, int from, int to, String field, Name name, boolean credential,
                JsonParser parser, Embedding embedding, Collection<Finding> out) {
            Site site = null;
            if (credential && builtIn) {
                site = site(parser, embedding);
                report(out, site, Rule.CREDENTIAL_HEADER, new String(buffer, from, to - from));
            }
            if (embedding.depth < EmbeddedJson.MAX_DEPTH && EmbeddedJson.looksLike(buffer, from, to)) {
                String carried = new String(buffer, from, to - from);
                if (embedded(carried, new Embedding(field, embedding.depth + 1, parser, embedding), out)) {
                    return;
                }
                buffer = carried.toCharArray();
                from = 0;
                to = buffer.length;
            }
            if (!teamRules.isEmpty()) {
                List<GitleaksRules.Match> matches = teamRules.find(file, new String(buffer, from, to - from));
                for (GitleaksRules.Match match : matches) {
                    if (site == null) {
                        site = site(parser, embedding);
                    }
                    report(out, site, null, match.ruleId(), match.secret());
                }
            }
            if (!builtIn) {
                return;
            }
            List<Hit> hits = values.inspect(buffer, from, to, name.keyLike() && !credential);
            if (hits.isEmpty()) {
                return;
            }
            if (site == null) {
                site = site(parser, embedding);
            }
            for (Hit hit : hits) {
                report(out, site, hit.rule(), hit.secret());
            }
        }

        /** Scans JSON carried in a string; {@code false}, with nothing reported, when it does not parse. */
        private boolean embedded(String json, Embedding embedding, Collection<Finding> out) {
            Collection<Finding> found = new LinkedHashSet<>();
            try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), json)) {
                int roots = 0;
                JsonToken token;
                while ((token = parser.nextToken()) != null) {
                    if (roots > 0) {
                        return false;
                    }
                    token(parser, token, embedding, found);
                    if (isValueEnd(parser, token)) {
                        roots++;
                    }
                }
            } catch (JacksonException e) {
                return false;
            }
            out.addAll(found);
            return true;
        }

        /** Whether the object {@code context} is a {@code headers} object: the value of a field so named. */
        private boolean isHeaders(TokenStreamContext context, Embedding embedding) {
            TokenStreamContext parent = context.getParent();
            while (parent != null && parent.inArray()) {
                parent = parent.getParent();
            }
            String holder = parent == null || parent.inRoot() ? embedding.holder : parent.currentName();
            return CredentialHeaders.isHeaders(holder);
        }

        private void report(Collection<Finding> out, Site site, Rule rule, String secret) {
            report(out, site, rule, rule.id(), secret);
        }

        /** Reports a finding of the built-in {@code rule}, or of the team's rule {@code ruleId} when it is null. */
        private void report(Collection<Finding> out, Site site, Rule rule, String ruleId, String secret) {
            String fingerprint = Finding.fingerprint(ruleId, secret);
            if (!allowlist.allows(secret, fingerprint)) {
                out.add(new Finding(file, site.line(), site.column(), site.path(), rule, Finding.mask(secret),
                        fingerprint, ruleId));
            }
        }

        private Site site(JsonParser parser, Embedding embedding) {
            if (position == null) {
                return NOWHERE;
            }
            if (embedding.carrier == null) {
                String path = path(parser, JsonPath.ROOT);
                position.moveTo(parser.currentTokenLocation().getByteOffset());
                return new Site(position.line(), position.column(), path);
            }
            // the outer parser has not moved on: it still stands on the string carrying this JSON
            if (embedding.carrierSite == null) {
                embedding.carrierSite = site(embedding.carrier, embedding.outer);
            }
            Site carrier = embedding.carrierSite;
            return new Site(carrier.line(), carrier.column(), path(parser, carrier.path()));
        }

        private String path(JsonParser parser, String prefix) {
            Deque<TokenStreamContext> chain = new ArrayDeque<>();
            for (TokenStreamContext c = parser.streamReadContext(); c != null && !c.inRoot(); c = c.getParent()) {
                chain.push(c);
            }
            StringBuilder path = new StringBuilder(prefix);
            for (TokenStreamContext c : chain) {
                if (c.inObject()) {
                    String name = c.currentName();
                    JsonPath.appendName(path, name == null ? "" : name, name != null && info(name).holdsSecret());
                } else {
                    JsonPath.appendIndex(path, c.getCurrentIndex());
                }
            }
            return path.toString();
        }

        /** What the field a string sits under implies; nothing for a string under no field. */
        private Name nameOf(String field) {
            return field == null ? Name.NONE : info(field);
        }

        private Name info(String name) {
            Name info = knownNames.get(name);
            if (info == null) {
                info = nameInfo.get(name);
            }
            if (info == null) {
                boolean holdsSecret = !names.inspect(name.toCharArray(), 0, name.length(), false).isEmpty();
                info = new Name(KeyNames.isKeyLike(name), CredentialHeaders.isCredential(name), holdsSecret);
                if (knownNames.size() < MAX_KNOWN_NAMES) {
                    knownNames.putIfAbsent(name, info);
                } else {
                    nameInfo.put(name, info);
                }
            }
            return info;
        }

        MalformedJsonException malformed(JacksonException e) {
            String reason;
            if (e instanceof UnexpectedEndOfInputException) {
                reason = "not valid JSON: the content ends before the JSON value does";
            } else if (e instanceof StreamConstraintsException) {
                String limit = dev.resilienceharness.json.Json.limitMet(e.getOriginalMessage());
                reason = "JSON beyond the parser's limits: " + (limit != null ? limit : "too large to read");
            } else {
                reason = "not valid JSON";
            }
            // Jackson's own message quotes the offending content, which may be a secret: it is left out.
            return malformed(e.getLocation(), reason);
        }

        private MalformedJsonException malformed(TokenStreamLocation location, String reason) {
            int line = 0;
            int column = 0;
            if (location != null && location.getByteOffset() >= 0) {
                SourcePosition at = new SourcePosition(content).moveTo(location.getByteOffset());
                line = at.line();
                column = at.column();
            }
            return new MalformedJsonException(file, line, column, reason + WHAT_TO_DO);
        }
    }

    /** Whether {@code token} completes a top-level value. */
    private static boolean isValueEnd(JsonParser parser, JsonToken token) {
        return parser.streamReadContext().inRoot() && (token.isScalarValue() || token.isStructEnd());
    }
}
