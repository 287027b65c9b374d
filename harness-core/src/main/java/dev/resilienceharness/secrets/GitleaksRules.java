package dev.resilienceharness.secrets;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.resilienceharness.files.BoundedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * A team's own secret rules, read from a gitleaks configuration ({@code .gitleaks.toml}, docs secrets.md): each
 * {@code [[rules]]} entry's {@code id}, {@code regex}, {@code secretGroup}, {@code keywords}, {@code entropy} and
 * {@code path}, the global and per-rule allowlists ({@code regexes}, {@code stopwords}, {@code paths},
 * {@code regexTarget}, {@code condition}), and {@code [extend] useDefault}. Regexes are compiled by RE2/J, which
 * matches in time linear in the text whatever the pattern, so a team's rule cannot slow a scan down on hostile
 * input; a construct it cannot run (lookaround, backreferences) is an error naming the file and the rule.
 *
 * <p>Immutable and thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class GitleaksRules {

    /** Where gitleaks looks for a project's rules, in its base directory. */
    public static final String FILE_NAME = ".gitleaks.toml";

    /** No team rules; the built-in rules run. */
    public static final GitleaksRules NONE = new GitleaksRules(true, List.of(), List.of());

    /** A rules file is a page or two; a larger one is refused by its size. */
    static final long MAX_BYTES = 1 << 20;

    private static final String WHAT_TO_DO = "; fix it there (gitleaks reads the same file)";

    private final boolean useDefault;
    private final List<TeamRule> rules;
    private final List<TeamAllowlist> allowlists;

    private GitleaksRules(boolean useDefault, List<TeamRule> rules, List<TeamAllowlist> allowlists) {
        this.useDefault = useDefault;
        this.rules = List.copyOf(rules);
        this.allowlists = List.copyOf(allowlists);
    }

    /**
     * The rules in {@code file}, read through the bounded reader.
     *
     * @throws IOException naming the file when it cannot be read, is not TOML, or holds a rule that cannot run
     */
    public static GitleaksRules read(Path file) throws IOException {
        return parse(file, BoundedFile.read(file, MAX_BYTES));
    }

    /**
     * The rules in {@code toml}, the content of {@code file}.
     *
     * @throws IOException naming the file, and the line or the rule id, when they cannot be used
     */
    static GitleaksRules parse(Path file, byte[] toml) throws IOException {
        JsonNode root;
        try {
            root = TomlMapper.builder().build().readTree(toml);
        } catch (JacksonException e) {
            // the parser's own message may quote the file, which may hold a secret an allowlist names
            TokenStreamLocation at = e.getLocation();
            String where = at == null || at.getLineNr() < 1 ? "" : ":" + at.getLineNr();
            throw new IOException(file + where + ": not valid TOML" + WHAT_TO_DO, e);
        }
        if (root == null || !root.isObject()) {
            throw new IOException(file + ": not a gitleaks configuration (a TOML table)" + WHAT_TO_DO);
        }
        Reader reader = new Reader(file);
        JsonNode extend = root.path("extend");
        if (extend.has("path") || extend.has("url")) {
            throw new IOException(file + ": [extend] path and url are not supported; copy the rules you extend into "
                    + "this file, or keep useDefault = true to add yours to the built-in rules");
        }
        boolean useDefault = extend.path("useDefault").asBoolean(false);
        List<TeamAllowlist> global = reader.allowlists(root, "[allowlist]");
        List<TeamRule> rules = new ArrayList<>();
        JsonNode list = root.path("rules");
        for (int i = 0; i < list.size(); i++) {
            TeamRule rule = reader.rule(list.get(i), i);
            if (rule != null) {
                rules.add(rule);
            }
        }
        return new GitleaksRules(useDefault, rules, global);
    }

    /** Whether the built-in rules run too: {@code [extend] useDefault = true}, or no file at all. */
    public boolean useDefault() {
        return useDefault;
    }

    /** The ids of the rules, in file order. */
    public List<String> ids() {
        return rules.stream().map(TeamRule::id).toList();
    }

    /** Whether there is no rule to run. */
    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /**
     * A match of a team rule: its id, the secret (the rule's secret group, or the whole match), and where that
     * secret is in the text ({@code [start, end)}), which redaction cuts out.
     */
    record Match(String ruleId, String secret, int start, int end) {
    }

    /**
     * The matches of every rule in {@code text}, a string of the cassette {@code file}, left out those an allowlist
     * accepts. One RE2/J pass per rule whose keywords occur in the text.
     */
    List<Match> find(Path file, String text) {
        return find(file, text, false);
    }

    /**
     * The matches in {@code text} as {@link #find(Path, String)} has them, where with {@code everyPath} a rule
     * limited to some paths runs anyway: a cassette being recorded has no final path yet, and redacting too much
     * is safe where leaving a secret is not.
     */
    List<Match> find(Path file, String text, boolean everyPath) {
        List<Match> out = new ArrayList<>();
        String path = file.toString().replace('\\', '/');
        String lower = null;
        for (TeamRule rule : rules) {
            if (!everyPath && rule.path() != null && !rule.path().matcher(path).find()) {
                continue;
            }
            if (!rule.keywords().isEmpty()) {
                if (lower == null) {
                    lower = text.toLowerCase(Locale.ROOT);
                }
                if (!containsAny(lower, rule.keywords())) {
                    continue;
                }
            }
            Matcher m = rule.regex().matcher(text);
            while (m.find()) {
                int group = secretGroup(rule, m);
                String secret = group < 0 ? null : m.group(group);
                if (secret == null || secret.isEmpty()
                        || rule.entropy() > 0 && HighEntropy.entropy(secret) < rule.entropy()) {
                    continue;
                }
                String line = lineAround(text, m.start(), m.end());
                if (!allowed(rule.allowlists(), path, secret, m.group(), line)
                        && !allowed(allowlists, path, secret, m.group(), line)) {
                    out.add(new Match(rule.id(), secret, m.start(group), m.end(group)));
                }
            }
        }
        return out;
    }

    /**
     * gitleaks' choice of the group holding the secret: the rule's secret group, or else the first capture group
     * that matched, or the match (0); -1 when the secret group does not exist.
     */
    private static int secretGroup(TeamRule rule, Matcher m) {
        if (rule.secretGroup() > 0) {
            return rule.secretGroup() <= m.groupCount() ? rule.secretGroup() : -1;
        }
        for (int g = 1; g <= m.groupCount(); g++) {
            String group = m.group(g);
            if (group != null && !group.isEmpty()) {
                return g;
            }
        }
        return 0;
    }

    private static boolean allowed(List<TeamAllowlist> lists, String path, String secret, String match,
            String line) {
        for (TeamAllowlist list : lists) {
            if (list.allows(path, secret, match, line)) {
                return true;
            }
        }
        return false;
    }

    private static String lineAround(String text, int start, int end) {
        int from = start == 0 ? 0 : text.lastIndexOf('\n', start - 1) + 1;
        int to = text.indexOf('\n', end);
        return text.substring(from, to < 0 ? text.length() : to);
    }

    private static boolean containsAny(String lower, List<String> words) {
        for (String w : words) {
            if (lower.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** One {@code [[rules]]} entry; {@code path} is {@code null} for every file. */
    private record TeamRule(String id, Pattern regex, int secretGroup, List<String> keywords, double entropy,
                            Pattern path, List<TeamAllowlist> allowlists) {
    }

    /** One allowlist: what it lists, and whether any ({@code OR}) or all ({@code AND}) of them must match. */
    private record TeamAllowlist(List<Pattern> regexes, String regexTarget, List<String> stopwords,
                                 List<Pattern> paths, boolean all) {

        boolean allows(String path, String secret, String match, String line) {
            List<Boolean> checks = new ArrayList<>(3);
            if (!regexes.isEmpty()) {
                String target = switch (regexTarget) {
                    case "match" -> match;
                    case "line" -> line;
                    default -> secret;
                };
                checks.add(regexes.stream().anyMatch(p -> p.matcher(target).find()));
            }
            if (!stopwords.isEmpty()) {
                String lower = secret.toLowerCase(Locale.ROOT);
                checks.add(stopwords.stream().anyMatch(lower::contains));
            }
            if (!paths.isEmpty()) {
                checks.add(paths.stream().anyMatch(p -> p.matcher(path).find()));
            }
            if (checks.isEmpty()) {
                return false;
            }
            return all ? !checks.contains(false) : checks.contains(true);
        }
    }

    /** Reads the tree of one file, naming the file and the rule in each error. */
    private static final class Reader {

        private final Path file;

        Reader(Path file) {
            this.file = file;
        }

        /** A rule, or {@code null} for one that only names paths: it finds files, and a cassette is no such file. */
        TeamRule rule(JsonNode node, int index) throws IOException {
            if (!node.isObject()) {
                throw new IOException(file + ": rules[" + index + "] is not a table" + WHAT_TO_DO);
            }
            String id = node.path("id").isString() ? node.get("id").stringValue() : null;
            if (id == null || id.isBlank()) {
                throw new IOException(file + ": rules[" + index + "] has no id; give every rule an id"
                        + " (findings carry it)");
            }
            String what = "rule '" + id + "'";
            String regex = text(node, "regex", what);
            Pattern path = pattern(node, "path", what);
            if (regex == null) {
                if (path == null) {
                    throw new IOException(file + ": " + what + " has neither regex nor path; give it a regex");
                }
                return null;
            }
            int group = node.path("secretGroup").asInt(0);
            double entropy = node.path("entropy").asDouble(0);
            List<String> keywords = strings(node, "keywords", what).stream()
                    .map(k -> k.toLowerCase(Locale.ROOT)).toList();
            return new TeamRule(id, compile(regex, what + " regex"), group, keywords, entropy, path,
                    allowlists(node, what + " allowlist"));
        }

        /** The {@code allowlist} table and the {@code allowlists} array of tables of {@code node}. */
        List<TeamAllowlist> allowlists(JsonNode node, String what) throws IOException {
            List<TeamAllowlist> out = new ArrayList<>();
            if (node.has("allowlist")) {
                out.add(allowlist(node.get("allowlist"), what));
            }
            JsonNode many = node.path("allowlists");
            for (int i = 0; i < many.size(); i++) {
                out.add(allowlist(many.get(i), what));
            }
            return out;
        }

        private TeamAllowlist allowlist(JsonNode node, String what) throws IOException {
            List<Pattern> regexes = new ArrayList<>();
            for (String r : strings(node, "regexes", what)) {
                regexes.add(compile(r, what + " regexes"));
            }
            List<Pattern> paths = new ArrayList<>();
            for (String p : strings(node, "paths", what)) {
                paths.add(compile(p, what + " paths"));
            }
            List<String> stopwords = strings(node, "stopwords", what).stream()
                    .map(s -> s.toLowerCase(Locale.ROOT)).toList();
            String target = node.path("regexTarget").asString("secret");
            boolean all = "AND".equalsIgnoreCase(node.path("condition").asString("OR"));
            return new TeamAllowlist(regexes, target, stopwords, paths, all);
        }

        private String text(JsonNode node, String key, String what) throws IOException {
            JsonNode v = node.get(key);
            if (v == null) {
                return null;
            }
            if (!v.isString()) {
                throw new IOException(file + ": " + what + ": " + key + " must be a string" + WHAT_TO_DO);
            }
            return v.stringValue();
        }

        private Pattern pattern(JsonNode node, String key, String what) throws IOException {
            String text = text(node, key, what);
            return text == null ? null : compile(text, what + " " + key);
        }

        private List<String> strings(JsonNode node, String key, String what) throws IOException {
            JsonNode v = node.get(key);
            if (v == null) {
                return List.of();
            }
            if (!v.isArray()) {
                throw new IOException(file + ": " + what + ": " + key + " must be a list of strings" + WHAT_TO_DO);
            }
            List<String> out = new ArrayList<>();
            for (JsonNode item : v.values()) {
                if (!item.isString()) {
                    throw new IOException(file + ": " + what + ": " + key + " must be a list of strings"
                            + WHAT_TO_DO);
                }
                out.add(item.stringValue());
            }
            return out;
        }

        private Pattern compile(String regex, String what) throws IOException {
            try {
                return Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new IOException(file + ": " + what + " uses " + construct(e) + ", which the linear-time"
                        + " regex engine (RE2/J) cannot run (" + e.getDescription() + "; lookaround and"
                        + " backreferences are not supported); rewrite it without that construct", e);
            }
        }

        private static String construct(PatternSyntaxException e) {
            String p = e.getPattern();
            return p == null || p.isEmpty() ? "a construct" : "'" + p + "'";
        }
    }
}
