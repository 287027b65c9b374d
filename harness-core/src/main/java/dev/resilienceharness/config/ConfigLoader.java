package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.MAINTAINED;

import dev.resilienceharness.concurrent.Indices;
import dev.resilienceharness.config.yaml.JsonValues;
import dev.resilienceharness.files.BoundedFile;
import dev.resilienceharness.transport.ToolSchemas;
import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import dev.resilienceharness.config.yaml.YamlReader;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.policy.Policy;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * Loads {@code resilience.yaml} (configuration.md) strictly: anything unknown, mistyped, missing or out of range is a
 * {@link ConfigException} naming the file, line, column and dotted key, and saying what was expected. Nothing else
 * escapes {@link #load}.
 *
 * <p>Choices made where docs configuration.md is silent:
 * <ul>
 *   <li>Key paths count list items from 0: {@code scenarios[0]} is the first scenario.</li>
 *   <li>Checks run in this order and the first problem found is reported: the file as bytes and as YAML
 *       ({@link YamlReader}); a wrong {@code version}; unknown top-level keys; a missing {@code version}; each
 *       top-level key in document order; each scenario's effective policy.</li>
 *   <li>{@code scenarios} may be left out or empty: a folder of cassettes can be verified and scanned on its own.
 *       A scenario may leave out {@code ops}: it is then a fault plan for {@code serve} only.</li>
 *   <li>{@code max_total_wait} may be left out of the top-level policy when every scenario declares it; the
 *       error names the first scenario left without one, at the top-level {@code policy} key (or the top of the
 *       file when there is none), since that is where it usually belongs. {@link HarnessConfig#policy()} then
 *       carries a zero bound, so a scenario built in code from it may not wait at all.</li>
 *   <li>Scalars follow YAML 1.2's JSON schema: {@code yes}, {@code on}, {@code ~} and {@code 0x10} are text, so
 *       {@code max_attempts: 0x10} is an error, not 16. Integer settings must be written as integers
 *       ({@code "3"} quoted is refused); durations accept a quoted plain number ({@code "2"} is 2s).</li>
 *   <li>A key written with nothing after it (null) is an error wherever a list, mapping, number or text is
 *       expected; the message says to write {@code []} or {@code {}} for an empty one. The exceptions are those
 *       where null has a meaning: {@code expect.reason}, {@code expect.retry_after}, {@code expect.elapsed_ms} and
 *       {@code expect.concurrency} items, and
 *       {@code quota.retry_after} (no header).</li>
 *   <li>Durations have no exponent form ({@code 1e3} is refused), are exact to the nanosecond (a finer one is
 *       refused, never rounded) and may be zero; {@code base_delay} may exceed {@code max_delay} (the cap wins).</li>
 *   <li>Faults: {@code {kind: {}}} is accepted for every kind and means the bare kind ({@code {server_error: {}}}
 *       is status 503); bare {@code slow_first_token} is refused because it has no default lateness. A
 *       {@code retry_after} number keeps its text as written ({@code 1.50} stays {@code "1.50"}); a boolean,
 *       list or mapping there is refused.</li>
 *   <li>{@code expect.attempts} items are integers of at least 0; {@code expect.reason} items are free text (a
 *       team's own loop may have reasons of its own).</li>
 *   <li>{@code volatile} paths are dotted, with no empty segment, and start with {@code request},
 *       {@code response}, {@code timing} (the keys of a cassette) or {@code *}.</li>
 *   <li>{@code loop} is {@code builtin} or a binary class name in a package ({@code com.acme.MyLoop},
 *       {@code com.acme.Outer$Loop}); a single word is refused as a likely typo of {@code builtin}.</li>
 *   <li>{@code requests} may name ops that no scenario runs. Request integers may have at most 1000 digits; a
 *       float that is not finite ({@code .inf}, {@code .nan}, {@code 1e999}) is refused.</li>
 *   <li>{@code redaction.allow} entries of exactly 16 lowercase hex digits are finding fingerprints; any other
 *       entry must compile as a Java regex of at most 1000 characters.</li>
 *   <li>{@code provider} needs {@code base_url} (http or https, with a host); {@code api_key_env} is optional and
 *       must look like an environment variable name.</li>
 *   <li>A runtime failure that is not a known problem (a bug) is still reported as a {@link ConfigException},
 *       whose message says "internal error", rather than escaping.</li>
 *   <li>Anchors and aliases work, within {@link YamlReader}'s limits; an error inside an aliased value is
 *       reported where the anchored value was written. YAML merge keys ({@code <<}) are not supported and show as
 *       an unknown key.</li>
 * </ul>
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class ConfigLoader {

    static final List<String> TOP_KEYS = List.of("version", "cassettes", "volatile", "policy", "loop", "requests",
            "requests_from", "scenarios", "budget", "redaction", "provider", "drift", "provider_limits", "secrets", "tools",
            "mcp_servers");
    static final List<String> SCENARIO_KEYS = List.of("name", "ops", "faults", "expect", "policy", "latency",
            "provider_limits", "tool_faults", "mcp_faults");
    static final List<String> EXPECT_KEYS = List.of("status", "attempts", "reason", "retry_after", "elapsed_ms",
            "concurrency");
    static final List<String> STATUSES = List.of("ok", "degraded", "stopped");
    static final List<String> BUDGET_KEYS = BudgetEntries.KEYS;
    static final List<String> REDACTION_KEYS = List.of("allow", "baseline");
    static final List<String> SECRETS_KEYS = List.of("gitleaks_config");
    static final List<String> PROVIDER_KEYS = List.of("base_url", "api_key_env");
    static final List<String> VOLATILE_ROOTS = List.of("request", "response", "timing", "*");

    /**
     * Used when {@code volatile:} is absent; {@code volatile: []} means none. The ids and timestamps a provider
     * mints per answer: Chat Completions' and Messages' {@code id} and {@code created}, Gemini's {@code responseId}
     * and {@code createTime}.
     */
    public static final List<String> DEFAULT_VOLATILE = List.of("response.id", "response.created",
            "response.system_fingerprint", "response.responseId", "response.createTime");
    /** Used when {@code cassettes:} is absent. */
    public static final String DEFAULT_CASSETTES = "cassettes";

    static final int MAX_ALLOW_PATTERN = 1000;

    /** From this many {@code requests:} entries on, they are turned into JSON on all cores. */
    static final int PARALLEL_REQUESTS = 256;

    private static final String CASSETTES_WHAT = "the cassette folder, relative to the yaml's";
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{16}");
    private static final Pattern BINARY_NAME = Pattern.compile(
            "[\\p{L}_$][\\p{L}\\p{N}_$]*(?:\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)+");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Path file;
    private final NodeReader r;
    private final Path folder;
    /** Where each declared request is written. */
    private final Map<String, HarnessConfig.Source> requestSources = new LinkedHashMap<>();
    /** Where a scenario first names each op. */
    private final Map<String, HarnessConfig.Source> opSources = new LinkedHashMap<>();
    /** Told the cassette folder before the scenarios are read, then set to {@code null}; or {@code null}. */
    private Consumer<Path> cassettesFolder;

    private ConfigLoader(Path file, Consumer<Path> cassettesFolder) {
        this.file = file;
        this.cassettesFolder = cassettesFolder;
        this.r = new NodeReader(file);
        Path parent = file.toAbsolutePath().getParent();
        this.folder = parent != null ? parent : file.toAbsolutePath();
    }

    /** Reads and checks the configuration in {@code yaml}. */
    public static HarnessConfig load(Path yaml) throws ConfigException {
        return load(yaml, readBytes(yaml), null);
    }

    /**
     * As {@link #load(Path)}, telling {@code cassettesFolder} the cassette folder before the yaml's scenarios are read
     * (its tree and its requests are read by then): the folder its {@code cassettes:} names, or the default when it
     * names none, which is the {@link HarnessConfig#cassettes()} of the config returned. A {@code cassettes:} that is
     * not a path is not told: loading then fails with its error, in the order of the file's keys.
     */
    public static HarnessConfig load(Path yaml, Consumer<Path> cassettesFolder) throws ConfigException {
        return load(yaml, readBytes(yaml), cassettesFolder);
    }

    /**
     * Checks the configuration in {@code content} as if it had been read from {@code file}: errors name
     * {@code file}, and relative paths in it are resolved against {@code file}'s folder.
     */
    public static HarnessConfig load(Path file, byte[] content) throws ConfigException {
        return load(file, content, null);
    }

    /**
     * As {@link #load(Path, byte[])}, telling {@code cassettesFolder} (may be {@code null}) the cassette folder as
     * {@link #load(Path, Consumer)} does.
     */
    public static HarnessConfig load(Path file, byte[] content, Consumer<Path> cassettesFolder)
            throws ConfigException {
        try {
            return new ConfigLoader(file, cassettesFolder).read(content);
        } catch (RuntimeException e) {
            // A safety net: every known problem is a ConfigException already; this one is a bug to report.
            throw new ConfigException(file, 0, 0, null, "could not read the file (internal error: " + e
                    + "); please report this with the file attached");
        }
    }

    /**
     * The bytes of {@code yaml}, as {@link #load(Path)} reads them: for a caller that needs them too, and then loads
     * them with {@link #load(Path, byte[], Consumer)}. A file that is missing, unreadable or too large is the error
     * {@link #load(Path)} gives.
     */
    public static byte[] content(Path yaml) throws ConfigException {
        return readBytes(yaml);
    }

    private static byte[] readBytes(Path yaml) throws ConfigException {
        // One reader for every file a goal is given: a pipe, a device or a folder is named, never opened.
        BoundedFile.Refused refused = BoundedFile.check(yaml);
        if (refused != null) {
            throw notRead(yaml, refused);
        }
        try {
            long size = Files.size(yaml);
            if (size > YamlReader.MAX_BYTES) {
                throw new ConfigException(yaml, 0, 0, null, ConfigMessages.tooLarge(size));
            }
            try (InputStream in = Files.newInputStream(yaml)) {
                // A file that grew past the limit since is read one byte past it, and the yaml reader refuses it.
                return BoundedFile.upTo(in, size, YamlReader.MAX_BYTES);
            }
        } catch (NoSuchFileException e) {
            throw new ConfigException(yaml, 0, 0, null, ConfigMessages.notFound());
        } catch (AccessDeniedException e) {
            throw new ConfigException(yaml, 0, 0, null, ConfigMessages.unreadable("permission denied"));
        } catch (IOException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new ConfigException(yaml, 0, 0, null, ConfigMessages.unreadable(reason));
        }
    }

    private static ConfigException notRead(Path yaml, BoundedFile.Refused refused) {
        return new ConfigException(yaml, 0, 0, null, refused.missing() ? ConfigMessages.notFound()
                : refused.reason().equals(BoundedFile.PERMISSION) ? ConfigMessages.unreadable("permission denied")
                : ConfigMessages.unreadable("it " + refused.reason()));
    }

    private HarnessConfig read(byte[] content) throws ConfigException {
        YamlNode root = YamlReader.read(file, content, "requests");
        if (root == null || root instanceof YamlNode.Scalar s && s.isNull()) {
            throw new ConfigException(file, 1, 1, null, ConfigMessages.empty());
        }
        if (!(root instanceof YamlNode.Mapping top)) {
            throw r.error(root, null, ConfigMessages.topLevelNotMapping(root.kind()));
        }
        if (top.get("version") != null) {
            version(top.get("version"));
        }
        r.mapping(top, "", "a mapping", TOP_KEYS);
        r.require(top, "", "version", "declare version: 1");

        Path cassettes = folder.resolve(DEFAULT_CASSETTES).normalize();
        List<String> volatilePaths = DEFAULT_VOLATILE;
        PartialPolicy policy = PartialPolicy.EMPTY;
        String loop = HarnessConfig.BUILTIN_LOOP;
        Map<String, ObjectNode> requests = new LinkedHashMap<>();
        List<Draft> drafts = List.of();
        ConfigLoader shared = null;
        Budget budget = Budget.NONE;
        Redaction redaction = Redaction.NONE;
        Path gitleaks = null;
        Provider provider = null;
        DriftSettings drift = DriftSettings.DEFAULTS;
        ProviderLimits limits = ProviderLimits.NONE;
        Map<String, dev.resilienceharness.tool.ToolDeclaration> tools = Map.of();
        Map<String, dev.resilienceharness.mcp.McpServer> mcpServers = Map.of();
        for (YamlNode.Entry e : top.entries()) {
            YamlNode v = e.value();
            switch (e.key()) {
                case "cassettes" -> cassettes = path(v, "cassettes", CASSETTES_WHAT);
                case "volatile" -> volatilePaths = volatilePaths(v);
                case "policy" -> policy = PartialPolicy.read(r, v, "policy");
                case "loop" -> loop = loop(v);
                case "requests" -> requests = requests(v);
                case "requests_from" -> shared = requestsFrom(v);
                case "scenarios" -> {
                    tellCassettesFolder(top);
                    drafts = scenarios(v);
                }
                case "budget" -> budget = budget(v);
                case "redaction" -> redaction = redaction(v);
                case "secrets" -> gitleaks = gitleaksConfig(v);
                case "provider" -> provider = provider(v);
                case "drift" -> drift = DriftSettings.read(r, v);
                case "provider_limits" -> limits = ProviderLimitsEntries.read(r, v, "provider_limits");
                case "tools" -> tools = ToolEntries.read(r, v);
                case "mcp_servers" -> mcpServers = McpEntries.read(r, v);
                default -> {
                    // version, checked above
                }
            }
        }
        tellCassettesFolder(top);
        if (!tools.isEmpty()) {
            ToolEntries.checkServers(r, top.get("tools"), tools, mcpServers);
        }
        redaction = redaction.withGitleaksConfig(gitleaks != null ? gitleaks : defaultGitleaksConfig());
        // No scenarios is a folder of cassettes to verify and scan; the scenario goals warn that they have none.
        if (shared != null) {
            requests = merge(top, shared, requests);
        }

        List<Scenario> scenarios = new ArrayList<>();
        for (Draft d : drafts) {
            PartialPolicy effective = d.policy().over(policy);
            if (effective.maxTotalWait() == null) {
                YamlNode.Entry at = top.entry("policy");
                String detail = ConfigMessages.maxTotalWaitMissing(d.name());
                throw at != null ? r.error(at, "policy.max_total_wait", detail)
                        : r.error(top, "policy.max_total_wait", detail);
            }
            Map<String, List<dev.resilienceharness.tool.ToolFault>> toolFaults = d.toolFaults() == null ? Map.of()
                    : ToolEntries.faults(r, d.toolFaults(), NodeReader.child(d.path(), "tool_faults"), tools);
            Map<String, List<dev.resilienceharness.tool.ToolFault>> mcpFaults = d.mcpFaults() == null ? Map.of()
                    : McpEntries.faults(r, d.mcpFaults(), NodeReader.child(d.path(), "mcp_faults"), mcpServers);
            scenarios.add(new Scenario(d.name(), d.ops(), d.faults(), d.expect(), effective.toPolicy(), d.line(),
                    d.recordedLatency(), d.limits().over(limits), toolFaults, mcpFaults));
        }
        PoolCheck.check(r, top, drafts.stream().map(Draft::limitsNode).toList(), scenarios);
        PriceCheck.check(r, top, budget, requests);
        Policy topPolicy = policy.maxTotalWait() != null ? policy.toPolicy()
                : policy.over(new PartialPolicy(null, null, null, Duration.ZERO, null, null, null, null, null))
                        .toPolicy();
        Map<String, HarnessConfig.Source> sources = new LinkedHashMap<>(opSources);
        sources.putAll(requestSources);
        if (redaction.baseline() != null && inside(redaction.baseline(), cassettes)) {
            YamlNode at = ((YamlNode.Mapping) top.get("redaction")).get("baseline");
            throw r.error(at, "redaction.baseline", ConfigMessages.baselineInCassettes(cassettes.toString()));
        }
        return new HarnessConfig(file, 1, cassettes, volatilePaths, topPolicy, loop, requests, scenarios, budget,
                redaction, provider, sources, drift, tools, mcpServers);
    }

    /**
     * Whether {@code path} is {@code folder} or lies inside it, compared as written and, where they exist, with
     * their links resolved.
     */
    public static boolean inside(Path path, Path folder) {
        Path p = path.toAbsolutePath().normalize();
        Path f = folder.toAbsolutePath().normalize();
        if (p.startsWith(f)) {
            return true;
        }
        try {
            Path realFolder = f.toRealPath();
            Path existing = p;
            Path rest = existing.getFileSystem().getPath("");
            while (existing != null && !Files.exists(existing)) {
                rest = existing.getFileName().resolve(rest);
                existing = existing.getParent();
            }
            return existing != null && existing.toRealPath().resolve(rest).normalize().startsWith(realFolder);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Tells {@link #cassettesFolder} the folder {@code top} names, once: before the scenarios are read, which a long
     * yaml spends one core on (its requests are read on all of them).
     */
    private void tellCassettesFolder(YamlNode.Mapping top) {
        if (cassettesFolder == null) {
            return;
        }
        Consumer<Path> told = cassettesFolder;
        cassettesFolder = null;
        YamlNode.Entry named = top.entry("cassettes");
        try {
            told.accept(named == null ? folder.resolve(DEFAULT_CASSETTES).normalize()
                    : path(named.value(), "cassettes", CASSETTES_WHAT));
        } catch (ConfigException e) {
            // reported in the order of the file's keys
        }
    }

    private void version(YamlNode v) throws ConfigException {
        if (!(v instanceof YamlNode.Scalar s) || s.type() != YamlNode.ScalarType.INTEGER || !s.text().equals("1")) {
            throw r.error(v, "version", ConfigMessages.expected("1, the only version of this format", v.describe()));
        }
    }

    private Path path(YamlNode v, String key, String what) throws ConfigException {
        String text = r.nonBlankText(v, key, what);
        try {
            return folder.resolve(text).normalize();
        } catch (InvalidPathException e) {
            throw r.error(v, key, ConfigMessages.badPath(text));
        }
    }

    private List<String> volatilePaths(YamlNode v) throws ConfigException {
        List<YamlNode> items = r.list(v, "volatile", "a list of dotted paths such as response.id");
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String key = NodeReader.index("volatile", i);
            YamlNode item = items.get(i);
            String path = r.nonBlankText(item, key, "a dotted path into the cassette such as response.id");
            String[] segments = path.split("\\.", -1);
            for (String segment : segments) {
                if (segment.isEmpty()) {
                    throw r.error(item, key, ConfigMessages.expected(
                            "a dotted path into the cassette such as response.id, with no empty part",
                            item.describe()));
                }
            }
            if (!VOLATILE_ROOTS.contains(segments[0])) {
                String root = DidYouMean.suggest(segments[0], VOLATILE_ROOTS);
                String suggestion = root == null ? null : root + path.substring(segments[0].length());
                throw r.error(item, key, ConfigMessages.badVolatileRoot(path, suggestion));
            }
            try {
                dev.resilienceharness.json.VolatilePaths.of(List.of(path));
            } catch (IllegalArgumentException e) {
                // The rules the fingerprinting applies, reported here instead of when a goal first uses the path.
                throw r.error(item, key, e.getMessage());
            }
            paths.add(path);
        }
        return paths;
    }

    private static final String LOOP_WHAT = "builtin or the binary class name of your loop, such as"
            + " com.acme.agent.MyLoop";

    private String loop(YamlNode v) throws ConfigException {
        String text = r.text(v, "loop", LOOP_WHAT);
        String problem = loopProblem(text, v.describe());
        if (problem != null) {
            throw r.error(v, "loop", problem);
        }
        return text;
    }

    /** What is wrong with {@code text} as the value of {@code loop}, or {@code null} when it is right. */
    private static String loopProblem(String text, String described) {
        if (text.equals(HarnessConfig.BUILTIN_LOOP) || BINARY_NAME.matcher(text).matches()) {
            return null;
        }
        String detail = ConfigMessages.expected(LOOP_WHAT, described);
        if (DidYouMean.suggest(text, List.of(HarnessConfig.BUILTIN_LOOP)) != null) {
            detail += "; did you mean 'builtin'?";
        }
        return detail;
    }

    /**
     * {@code config} with its {@code loop:} replaced by {@code loop}, as {@code -Dresilience.loop} asks; the value
     * follows the rules of {@code loop:}.
     *
     * @throws IllegalArgumentException saying what is wrong when {@code loop} is neither builtin nor a class name
     */
    public static HarnessConfig withLoop(HarnessConfig config, String loop) {
        String problem = loopProblem(loop, loop.isBlank() ? "an empty text"
                : "the text '" + YamlNode.abbreviate(loop) + "'");
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return config.withLoop(loop);
    }

    private Map<String, ObjectNode> requests(YamlNode v) throws ConfigException {
        if (!(v instanceof YamlNode.Mapping m)) {
            throw r.wrongType(v, "requests", "a mapping from op name to its request", "write {} for none");
        }
        List<YamlNode.Entry> entries = m.entries();
        // Each request is its own tree: a long list is turned into JSON on all cores, and a problem is still reported
        // for the first entry that has one, as in the file's order.
        String[] keys = new String[entries.size()];
        Object[] values = new Object[entries.size()];
        IntConsumer convert = i -> {
            YamlNode.Entry e = entries.get(i);
            keys[i] = NodeReader.child("requests", e.key());
            try {
                values[i] = JsonValues.spellsObject(e.value()) ? JsonValues.value(r, e.value(), keys[i]) : null;
            } catch (ConfigException problem) {
                values[i] = problem;
            }
        };
        if (entries.size() >= PARALLEL_REQUESTS) {
            Indices.forEach(entries.size(), convert);
        } else {
            for (int i = 0; i < entries.size(); i++) {
                convert.accept(i);
            }
        }
        Map<String, ObjectNode> requests = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            YamlNode.Entry e = entries.get(i);
            String key = keys[i];
            if (e.key().isBlank()) {
                throw r.error(e, key, ConfigMessages.expected("an op name", "an empty text"));
            }
            if (values[i] instanceof ConfigException problem) {
                throw problem;
            }
            ToolSchemas.Unusable schema = values[i] instanceof ObjectNode request ? ToolSchemas.problem(request) : null;
            if (schema != null) {
                throw r.error(e.value(), key + "." + schema.path(), ConfigMessages.badToolSchema(schema.detail()));
            }
            requestSources.put(e.key(), new HarnessConfig.Source(file, e.line(), e.column(), key));
            // Not a mapping: the error says what a request is written as.
            requests.put(e.key(), values[i] != null ? (ObjectNode) values[i] : JsonValues.object(r, e.value(), key,
                    "the JSON request sent for op '" + YamlNode.abbreviate(e.key())
                            + "', written as a mapping such as {model: m, messages: [...]}"));
        }
        return requests;
    }

    /** The requests that loaded {@code shared}'s file, then this file's own; an op may be declared in one only. */
    private Map<String, ObjectNode> merge(YamlNode.Mapping top, ConfigLoader shared, Map<String, ObjectNode> own)
            throws ConfigException {
        YamlNode.Entry ownEntry = top.entry("requests");
        if (ownEntry != null && ownEntry.value() instanceof YamlNode.Mapping m) {
            for (YamlNode.Entry e : m.entries()) {
                HarnessConfig.Source there = shared.requestSources.get(e.key());
                if (there != null) {
                    throw r.error(e, NodeReader.child("requests", e.key()), ConfigMessages.requestDeclaredTwice(
                            e.key(), there.file() + ":" + there.line() + ":" + there.column()));
                }
            }
        }
        Map<String, ObjectNode> all = new LinkedHashMap<>(shared.sharedRequests);
        all.putAll(own);
        shared.requestSources.forEach(requestSources::putIfAbsent);
        return all;
    }

    /**
     * Reads the {@code requests:} of the yaml {@code requests_from} names, strictly and with errors naming that
     * file. It may be a whole resilience.yaml or hold only {@code requests:}; it must not name a file of its own.
     */
    private ConfigLoader requestsFrom(YamlNode v) throws ConfigException {
        String text = r.nonBlankText(v, "requests_from", "the path of a yaml whose requests: this file uses,"
                + " relative to this file");
        Path other;
        try {
            other = folder.resolve(text).normalize();
        } catch (InvalidPathException e) {
            throw r.error(v, "requests_from", ConfigMessages.badPath(text));
        }
        if (other.toAbsolutePath().equals(file.toAbsolutePath().normalize())) {
            throw r.error(v, "requests_from", ConfigMessages.requestsFromItself());
        }
        BoundedFile.Refused refused = BoundedFile.check(other);
        if (refused != null) {
            throw r.error(v, "requests_from", refused.missing() ? ConfigMessages.requestsFromMissing(other.toString())
                    : ConfigMessages.requestsFromNotAFile(other.toString(), refused.reason()));
        }
        ConfigLoader loader = new ConfigLoader(other, null);
        YamlNode root = YamlReader.read(other, readBytes(other), "requests");
        if (!(root instanceof YamlNode.Mapping top)) {
            throw root == null ? new ConfigException(other, 1, 1, null, ConfigMessages.requestsFromEmpty())
                    : loader.r.error(root, null, ConfigMessages.requestsFromNotMapping(root.kind()));
        }
        loader.r.mapping(top, "", "a mapping with requests", TOP_KEYS);
        YamlNode.Entry chained = top.entry("requests_from");
        if (chained != null) {
            throw loader.r.error(chained, "requests_from", ConfigMessages.requestsFromChained());
        }
        YamlNode requests = top.get("requests");
        if (requests == null) {
            throw r.error(v, "requests_from", ConfigMessages.requestsFromNone(other.toString()));
        }
        loader.sharedRequests = loader.requests(requests);
        return loader;
    }

    /** The requests this loader read for another file's {@code requests_from}. */
    private Map<String, ObjectNode> sharedRequests = Map.of();

    /** A scenario as written, before its policy is laid over the top-level one. */
    private record Draft(String name, List<String> ops, List<Fault> faults, Expectations expect,
            PartialPolicy policy, int line, boolean recordedLatency, ProviderLimits limits, YamlNode limitsNode,
            String path, YamlNode toolFaults, YamlNode mcpFaults) {
    }

    private List<Draft> scenarios(YamlNode v) throws ConfigException {
        List<YamlNode> items = r.list(v, "scenarios", "a list of scenarios");
        List<Draft> drafts = new ArrayList<>();
        Map<String, YamlNode> names = new HashMap<>();
        // One String per op name, however many scenarios list it: a run's lookups by op (its request, its journal)
        // then find their key by identity, without comparing the characters of two copies.
        Map<String, String> opNames = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            String path = NodeReader.index("scenarios", i);
            YamlNode.Mapping m = r.mapping(items.get(i), path, "a scenario: a mapping with name and ops",
                    SCENARIO_KEYS);
            YamlNode nameNode = r.require(m, path, "name", "every scenario needs a unique name");
            String namePath = NodeReader.child(path, "name");
            String name = r.nonBlankText(nameNode, namePath, "a scenario name");
            YamlNode first = names.putIfAbsent(name, nameNode);
            if (first != null) {
                throw r.error(nameNode, namePath,
                        ConfigMessages.duplicateScenario(name, first.line(), nameNode.line()));
            }
            List<String> ops = new ArrayList<>();
            String opsPath = NodeReader.child(path, "ops");
            // Without ops, a scenario is a fault plan for serve only; with them, they are the ops to run.
            List<YamlNode> opNodes = m.get("ops") == null ? List.of() : r.nonEmptyList(m.get("ops"), opsPath,
                    "a non-empty list of op names such as [plan, patch]");
            for (int j = 0; j < opNodes.size(); j++) {
                String opPath = NodeReader.index(opsPath, j);
                String op = opNames.computeIfAbsent(r.nonBlankText(opNodes.get(j), opPath, "an op name such as plan"),
                        k -> k);
                ops.add(op);
                opSources.putIfAbsent(op, new HarnessConfig.Source(file, opNodes.get(j).line(),
                        opNodes.get(j).column(), opPath));
            }
            List<Fault> faults = new ArrayList<>();
            if (m.get("faults") != null) {
                String faultsPath = NodeReader.child(path, "faults");
                List<YamlNode> faultNodes = r.list(m.get("faults"), faultsPath, "a list of faults");
                for (int j = 0; j < faultNodes.size(); j++) {
                    faults.add(FaultEntries.read(r, faultNodes.get(j), NodeReader.index(faultsPath, j)));
                }
            }
            Expectations expect = m.get("expect") == null ? Expectations.NONE
                    : expectations(m.get("expect"), NodeReader.child(path, "expect"));
            PartialPolicy policy = m.get("policy") == null ? PartialPolicy.EMPTY
                    : PartialPolicy.read(r, m.get("policy"), NodeReader.child(path, "policy"));
            boolean recordedLatency = m.get("latency") != null
                    && r.oneOf(m.get("latency"), NodeReader.child(path, "latency"), List.of("recorded")) != null;
            ProviderLimits limits = m.get("provider_limits") == null ? ProviderLimits.NONE
                    : ProviderLimitsEntries.read(r, m.get("provider_limits"), NodeReader.child(path, "provider_limits"));
            drafts.add(new Draft(name, ops, faults, expect, policy, m.line(), recordedLatency, limits,
                    m.get("provider_limits"), path, m.get("tool_faults"), m.get("mcp_faults")));
        }
        return drafts;
    }

    private Expectations expectations(YamlNode v, String path) throws ConfigException {
        YamlNode.Mapping m = r.mapping(v, path, "a mapping of expected outcome lists (status, attempts, reason,"
                + " retry_after, elapsed_ms, concurrency)", EXPECT_KEYS);
        List<String> status = null;
        List<Integer> attempts = null;
        List<String> reason = null;
        List<String> retryAfter = null;
        if (m.get("status") != null) {
            String p = NodeReader.child(path, "status");
            status = new ArrayList<>();
            List<YamlNode> items = r.list(m.get("status"), p, "a list of statuses such as [ok, degraded]");
            for (int i = 0; i < items.size(); i++) {
                status.add(r.oneOf(items.get(i), NodeReader.index(p, i), STATUSES));
            }
        }
        if (m.get("attempts") != null) {
            String p = NodeReader.child(path, "attempts");
            attempts = new ArrayList<>();
            List<YamlNode> items = r.list(m.get("attempts"), p, "a list of attempt counts such as [1, 2]");
            for (int i = 0; i < items.size(); i++) {
                attempts.add(r.integer(items.get(i), NodeReader.index(p, i), 0));
            }
        }
        if (m.get("reason") != null) {
            String p = NodeReader.child(path, "reason");
            reason = new ArrayList<>();
            List<YamlNode> items = r.list(m.get("reason"), p, "a list of reasons such as [timeout, null]");
            for (int i = 0; i < items.size(); i++) {
                YamlNode item = items.get(i);
                reason.add(item instanceof YamlNode.Scalar s && s.isNull() ? null
                        : r.text(item, NodeReader.index(p, i), "a reason such as timeout, quota or schema, or null"));
            }
        }
        if (m.get("retry_after") != null) {
            String p = NodeReader.child(path, "retry_after");
            retryAfter = new ArrayList<>();
            List<YamlNode> items = r.list(m.get("retry_after"), p, "a list of Retry-After texts such as [\"2\", null]");
            for (int i = 0; i < items.size(); i++) {
                retryAfter.add(r.sourceText(items.get(i), NodeReader.index(p, i),
                        "the Retry-After header text, or null"));
            }
        }
        List<Long> elapsedMs = null;
        if (m.get("elapsed_ms") != null) {
            elapsedMs = new ArrayList<>();
            for (Integer ms : integersOrNull(m.get("elapsed_ms"), NodeReader.child(path, "elapsed_ms"),
                    "a list of first-token latencies in ms such as [3500, null]", 0)) {
                elapsedMs.add(ms == null ? null : ms.longValue());
            }
        }
        List<Integer> concurrency = m.get("concurrency") == null ? null
                : integersOrNull(m.get("concurrency"), NodeReader.child(path, "concurrency"),
                        "a list of concurrency limits such as [2, null]", 1);
        Expectations expect = new Expectations(status, attempts, reason, retryAfter, elapsedMs, concurrency);
        return expect.isEmpty() ? Expectations.NONE : expect;
    }

    /** A list of integers of at least {@code min}, {@code null} items allowed. */
    private List<Integer> integersOrNull(YamlNode v, String path, String what, int min) throws ConfigException {
        List<Integer> values = new ArrayList<>();
        List<YamlNode> items = r.list(v, path, what);
        for (int i = 0; i < items.size(); i++) {
            YamlNode item = items.get(i);
            values.add(item instanceof YamlNode.Scalar s && s.isNull() ? null
                    : r.integer(item, NodeReader.index(path, i), min));
        }
        return values;
    }

    private Budget budget(YamlNode v) throws ConfigException {
        return BudgetEntries.read(r, v);
    }

    private Redaction redaction(YamlNode v) throws ConfigException {
        YamlNode.Mapping m = r.mapping(v, "redaction", "a mapping with allow and baseline", REDACTION_KEYS);
        List<String> allow = new ArrayList<>();
        if (m.get("allow") != null) {
            List<YamlNode> items = r.list(m.get("allow"), "redaction.allow",
                    "a list of regexes and finding fingerprints");
            for (int i = 0; i < items.size(); i++) {
                String key = NodeReader.index("redaction.allow", i);
                YamlNode item = items.get(i);
                String text = r.nonBlankText(item, key, "a Java regex or a 16-hex finding fingerprint");
                if (!FINGERPRINT.matcher(text).matches()) {
                    checkRegex(item, key, text);
                }
                allow.add(text);
            }
        }
        Path baseline = m.get("baseline") == null ? null
                : path(m.get("baseline"), "redaction.baseline", "the baseline file, relative to the yaml's folder");
        return new Redaction(allow, baseline);
    }

    /** {@code secrets.gitleaks_config}: the team's gitleaks rules, relative to the yaml's folder. */
    private Path gitleaksConfig(YamlNode v) throws ConfigException {
        YamlNode.Mapping m = r.mapping(v, "secrets", "a mapping with gitleaks_config", SECRETS_KEYS);
        return m.get("gitleaks_config") == null ? null : path(m.get("gitleaks_config"), "secrets.gitleaks_config",
                "a gitleaks configuration (.gitleaks.toml), relative to the yaml's folder");
    }

    /** gitleaks' own convention: a {@code .gitleaks.toml} in the project's base directory, the yaml's folder. */
    private Path defaultGitleaksConfig() {
        Path file = folder.resolve(".gitleaks.toml");
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? file : null;
    }

    private void checkRegex(YamlNode item, String key, String text) throws ConfigException {
        if (text.length() > MAX_ALLOW_PATTERN) {
            throw r.error(item, key, ConfigMessages.expected("a regex of at most " + MAX_ALLOW_PATTERN
                    + " characters", "one of " + text.length()));
        }
        try {
            Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            throw r.error(item, key, ConfigMessages.badRegex(e.getDescription(), e.getIndex()));
        }
        String linear = dev.resilienceharness.transport.LinearRegex.problem(text);
        if (linear != null) {
            throw r.error(item, key, ConfigMessages.nonLinearRegex(linear));
        }
    }

    private Provider provider(YamlNode v) throws ConfigException {
        YamlNode.Mapping m = r.mapping(v, "provider", "a mapping with base_url and api_key_env", PROVIDER_KEYS);
        String urlWhat = "an http or https URL such as https://llm.example.test/v1";
        YamlNode urlNode = r.require(m, "provider", "base_url", "the provider's OpenAI-compatible base URL, such as"
                + " https://llm.example.test/v1");
        String text = r.nonBlankText(urlNode, "provider.base_url", urlWhat);
        URI url;
        try {
            url = new URI(text);
        } catch (URISyntaxException e) {
            throw r.error(urlNode, "provider.base_url", ConfigMessages.expected(urlWhat, urlNode.describe()));
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null) {
            throw r.error(urlNode, "provider.base_url", ConfigMessages.expected(urlWhat, urlNode.describe()));
        }
        String env = null;
        YamlNode envNode = m.get("api_key_env");
        if (envNode != null) {
            String envWhat = "the name of an environment variable such as PROVIDER_API_KEY";
            env = r.text(envNode, "provider.api_key_env", envWhat);
            if (!ENV_NAME.matcher(env).matches()) {
                throw r.error(envNode, "provider.api_key_env", ConfigMessages.expected(envWhat, envNode.describe()));
            }
        }
        return new Provider(url, env);
    }
}
