package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.yaml.YamlNode;
import java.util.Collection;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Every sentence a {@link ConfigException} can say after its {@code file:line:column: key:} prefix, kept in one
 * place so tests and the plugin's integration tests can assert them.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ConfigMessages {

    static final String MIB_4 = "4 MiB";

    private ConfigMessages() {
    }

    // --- the file as bytes and as YAML ---

    public static String tooLarge(long bytes) {
        return "the file is " + bytes + " bytes; the limit is " + MIB_4;
    }

    public static String notUtf8(int badByte) {
        return String.format(Locale.ROOT,
                "the file is not valid UTF-8: byte 0x%02x cannot be decoded here; save the file as UTF-8", badByte);
    }

    public static String notFound() {
        return "the file does not exist; create it or point resilience.config at another file";
    }

    public static String outputInCassettes(String output, String cassettes) {
        return output + ": the output directory is inside the cassette folder " + cassettes + ", where reports would"
                + " mix with the cassettes; point resilience.outputDirectory elsewhere (the default is"
                + " target/resilience)";
    }

    public static String cassettesNowhere(String folder) {
        return "the cassette folder " + folder + " does not exist, so no op has a cassette; fix the path, or run"
                + " mvn resilience:record to record into it";
    }

    public static String configMissing() {
        return "no such file. Create a resilience.yaml (see the README) or point -Dresilience.config at yours";
    }

    public static String namedConfigMissing() {
        return "no such file, and it is the config this build names (resilience.config or <config>): the goal"
                + " would check nothing. Fix the name, or create the file";
    }

    public static String configNotAFile(String reason) {
        return reason + ", where the config must be a regular file; point resilience.config at your resilience.yaml";
    }

    public static String unreadable(String reason) {
        return "cannot read the file: " + reason;
    }

    public static String forbiddenCharacter(int codePoint) {
        return String.format(Locale.ROOT, "the character U+%04X is not allowed in YAML; remove it", codePoint);
    }

    public static String syntax(String problem) {
        return "not valid YAML: " + problem;
    }

    public static String tooBig(String problem) {
        return "too large to read: " + problem;
    }

    public static String complexKey() {
        return "not valid here: a key must be a plain text, not a list or a mapping";
    }

    public static String tooDeep(int max) {
        return "lists and mappings nested more than " + max + " levels deep; a resilience.yaml needs far fewer";
    }

    public static String tooManyAliases(int max) {
        return "more than " + max + " aliases to lists or mappings; write the values out instead";
    }

    public static String aliasText(long max) {
        return "the aliases expand to more than " + max + " characters of text, which looks like an alias bomb"
                + " (no heap holds what they stand for); write the values out instead";
    }

    public static String aliasExpansion(long max) {
        return "the aliases expand to more than " + max
                + " values, which looks like an alias bomb; write the values out instead";
    }

    public static String unknownAnchor(String name) {
        return "the alias *" + name + " refers to no anchor &" + name + " declared before it";
    }

    public static String unsupportedTag(String tag) {
        return "the tag '" + tag + "' is not supported; remove it (only !!str, !!map and !!seq are accepted)";
    }

    public static String duplicateKey(String key, int firstLine, int firstColumn, int line, int column) {
        return "duplicate key '" + key + "': first at line " + firstLine + ", column " + firstColumn
                + ", again at line " + line + ", column " + column + "; keep only one";
    }

    public static String secondDocument() {
        return "only one YAML document is allowed; remove the second '---' and what follows it";
    }

    // --- the configuration's shape ---

    public static String empty() {
        return "the file is empty: it needs at least version, policy.max_total_wait and scenarios";
    }

    public static String topLevelNotMapping(String got) {
        return "the top level must be a mapping with keys such as version, policy and scenarios, got " + got;
    }

    public static String unknownKey(String key, String suggestion, Collection<String> allowed) {
        return withSuggestion("unknown key '" + YamlNode.abbreviate(key) + "'", suggestion,
                "the keys allowed here are: " + String.join(", ", allowed));
    }

    public static String missingKey(String key, String what) {
        return "missing required key '" + key + "': " + what;
    }

    public static String expected(String what, String got) {
        return "expected " + what + ", got " + got;
    }

    public static String nullNotAllowed(String what, String fix) {
        return "expected " + what + ", got nothing (null); " + fix;
    }

    public static String emptyList(String what) {
        return "expected " + what + ", got an empty list";
    }

    public static String tooLargeInteger(String text) {
        return "numbers too large: " + YamlNode.abbreviate(text) + " does not fit in an integer (at most "
                + Integer.MAX_VALUE + ")";
    }

    public static String integerTooLong(int maxDigits) {
        return "numbers too large: an integer here may have at most " + maxDigits + " digits";
    }

    public static String integerTooSmall(int min, String text) {
        return "expected an integer of at least " + min + ", got " + YamlNode.abbreviate(text);
    }

    public static String notFinite(String text) {
        return "expected a finite number (JSON has no NaN or infinity), got " + YamlNode.abbreviate(text);
    }

    public static String maxTotalWaitMissing(String scenario) {
        return "declare policy.max_total_wait, the bound on all virtual waiting in one scenario run (e.g. 30s);"
                + " scenario '" + YamlNode.abbreviate(scenario) + "' has none";
    }

    public static String duplicateScenario(String name, int firstLine, int line) {
        return "duplicate scenario name '" + YamlNode.abbreviate(name) + "': first at line " + firstLine
                + ", again at line " + line + "; scenario names must be unique";
    }

    public static String unknownFault(String name, String suggestion, Collection<String> kinds) {
        return withSuggestion("unknown fault '" + YamlNode.abbreviate(name) + "'", suggestion,
                "the fault kinds are: " + String.join(", ", kinds));
    }

    public static String undeclaredTool(String name, String suggestion, Collection<String> declared) {
        return withSuggestion("tool '" + YamlNode.abbreviate(name) + "' is not declared in tools", suggestion,
                declared.isEmpty() ? "declare it first, such as tools: {" + YamlNode.abbreviate(name) + ": {}}"
                        : "the declared tools are: " + String.join(", ", declared));
    }

    public static String unknownToolFault(String name, String suggestion, Collection<String> kinds) {
        return withSuggestion("unknown tool fault '" + YamlNode.abbreviate(name) + "'", suggestion,
                "the tool fault kinds are: " + String.join(", ", kinds));
    }

    public static String toolFaultMappingSize(int size) {
        return "expected a tool fault written as one key with its setting, such as {slow: 5s}, got a mapping with "
                + size + " keys; put each fault in its own list entry";
    }

    public static String invalidResultWithoutSchema(String tool) {
        return "tool '" + YamlNode.abbreviate(tool) + "' declares no output_schema, so no result can break it; add"
                + " output_schema: under tools." + YamlNode.abbreviate(tool) + ", or use another tool fault";
    }

    public static String unbreakableSchema(String tool) {
        return "the output_schema of tool '" + YamlNode.abbreviate(tool) + "' accepts every JSON value, so no"
                + " result can break it; give it a type or required properties, or use another tool fault";
    }

    public static String undeclaredMcpServer(String name, String suggestion, Collection<String> declared) {
        return withSuggestion("MCP server '" + YamlNode.abbreviate(name) + "' is not declared in mcp_servers",
                suggestion, declared.isEmpty() ? "declare it first, such as mcp_servers: {" + YamlNode.abbreviate(name)
                        + ": {transport: stdio, command: [java, -jar, server.jar]}}"
                        : "the declared MCP servers are: " + String.join(", ", declared));
    }

    public static String badMcpServerName(String name) {
        return "'" + YamlNode.abbreviate(name) + "' cannot name an MCP server: use letters, digits, '.', '_' and '-',"
                + " starting with a letter or digit, at most 100 characters (it names the server's cassette folder)";
    }

    public static String mcpSettingOfOtherTransport(String key, String transport, String instead) {
        return key + " is not a setting of a " + transport + " server; " + instead;
    }

    public static String badMcpUrl(String got) {
        return "expected an absolute http:// or https:// URL such as http://127.0.0.1:8080/mcp, got " + got;
    }

    public static String mcpOnlyFault(String kind, String tool, Collection<String> kinds) {
        return "the fault " + kind + " happens to an MCP server, and tool '" + YamlNode.abbreviate(tool)
                + "' is not served by one; declare server: under tools." + YamlNode.abbreviate(tool)
                + " to name its MCP server, or use one of: " + String.join(", ", kinds);
    }

    public static String toolOnlyFault(String kind, String server, Collection<String> kinds) {
        return "the fault " + kind + " happens to one tool's calls, not to a session; put it under tool_faults: for a"
                + " tool declared with server: " + YamlNode.abbreviate(server) + ", or use one of the session faults: "
                + String.join(", ", kinds);
    }

    public static String unknownMcpFault(String name, String suggestion, Collection<String> kinds) {
        return withSuggestion("unknown MCP fault '" + YamlNode.abbreviate(name) + "'", suggestion,
                "the MCP session fault kinds are: " + String.join(", ", kinds));
    }

    public static String slowSettingsKeys(String key) {
        return "'" + YamlNode.abbreviate(key) + "' is not a setting of slow; write {slow: 5s} or, for an MCP tool,"
                + " {slow: 5s, progress: 2}";
    }

    public static String replayOfMcpTool(String tool) {
        return "tool '" + YamlNode.abbreviate(tool) + "' is served by an MCP server, whose answers come from its MCP"
                + " cassettes; remove replay:, which is for a tool the loop runs itself";
    }

    public static String faultNeedsSettings(String kind, String example) {
        return "the fault " + kind + " needs settings: write " + example;
    }

    public static String faultTakesNoSettings(String kind) {
        return "the fault " + kind + " takes no settings; write it bare: " + kind;
    }

    public static String faultMappingSize(int size) {
        return "expected a fault written as one key with its settings, such as {quota: {retry_after: \"2\"}}, got a"
                + " mapping with " + size + " keys; put each fault in its own list entry";
    }

    public static String nonLinearRegex(String description) {
        return "a regular expression the linear-time engine cannot run (" + description + "; lookaround and"
                + " backreferences are not supported); write a simpler regex or a 16-hex finding fingerprint";
    }

    public static String badRegex(String description, int index) {
        return "not a valid regular expression (" + description + (index >= 0 ? " near index " + index : "")
                + "); write a Java regex or a 16-hex finding fingerprint";
    }

    public static String badVolatileRoot(String path, String suggestion) {
        return "expected a path starting with request, response, timing or *, got '" + YamlNode.abbreviate(path)
                + "'" + didYouMean(suggestion);
    }

    public static String badPath(String text) {
        return "not a usable path: '" + YamlNode.abbreviate(text) + "'; write a folder or file path relative to"
                + " the yaml's folder";
    }

    public static String oneOf(Collection<String> values, String suggestion, String got) {
        return "expected one of " + String.join(", ", values) + ", got " + got + didYouMean(suggestion);
    }

    public static String badToolSchema(String detail) {
        return detail + "; a tool schema must be a valid JSON Schema whose references stay inside it";
    }

    // --- requests_from ---

    public static String requestDeclaredTwice(String op, String there) {
        return "the request for op '" + YamlNode.abbreviate(op) + "' is also declared at " + there
                + " (requests_from); declare each request in one file";
    }

    public static String requestsFromItself() {
        return "names this file itself; name the yaml whose requests: you want to share";
    }

    public static String requestsFromMissing(String path) {
        return "no such file " + path + "; name a yaml with requests:, relative to this file";
    }

    public static String requestsFromNotAFile(String path, String reason) {
        return path + " " + reason + "; name a yaml with requests:, relative to this file";
    }

    public static String baselineInCassettes(String cassettes) {
        return "the baseline is inside the cassette folder " + cassettes + ", where every .json file is read as a"
                + " cassette; keep it beside the yaml, such as secrets-baseline.json";
    }

    public static String requestsFromEmpty() {
        return "the file is empty: a file named by requests_from needs requests:";
    }

    public static String requestsFromNotMapping(String got) {
        return "a file named by requests_from must be a mapping with requests:, got " + got;
    }

    public static String requestsFromChained() {
        return "a file named by requests_from cannot name another one; declare the shared requests in one file";
    }

    public static String requestsFromNone(String path) {
        return path + " has no requests: to share";
    }

    // --- durations ---

    public static String badDuration(String text) {
        return "expected a duration such as 10ms, 2s, 1m or a plain number of seconds, got '"
                + YamlNode.abbreviate(text) + "'";
    }

    public static String negativeDuration(String text) {
        return "a duration must not be negative, got '" + YamlNode.abbreviate(text) + "'";
    }

    public static String durationTooLarge(String text) {
        return "numbers too large: a duration is at most one year (365 days), got '" + YamlNode.abbreviate(text)
                + "'";
    }

    public static String durationTooPrecise(String text) {
        return "a duration is counted in whole nanoseconds, got '" + YamlNode.abbreviate(text) + "'";
    }

    // --- provider limits and token budget ---

    public static String poolLimitsDiffer(String scenario, String pool, String first) {
        return "scenario '" + YamlNode.abbreviate(scenario) + "' shares the endpoint '" + YamlNode.abbreviate(pool)
                + "' with scenario '" + YamlNode.abbreviate(first) + "' but has other limits; an endpoint has one set"
                + " of limits: declare them once at top level, or the same in every scenario of the pool";
    }

    public static String unpricedModel(String model, String op) {
        return (model == null ? "the request for op '" + YamlNode.abbreviate(op) + "' names no model"
                : "no price for model '" + YamlNode.abbreviate(model) + "' (requests." + YamlNode.abbreviate(op) + ")")
                + "; add a row for it or a \"*\" row for every other model";
    }

    private static String withSuggestion(String head, String suggestion, String tail) {
        if (suggestion == null) {
            return head + "; " + tail;
        }
        return head + didYouMean(suggestion) + " " + Character.toUpperCase(tail.charAt(0)) + tail.substring(1);
    }

    private static String didYouMean(String suggestion) {
        return suggestion == null ? "" : "; did you mean '" + suggestion + "'?";
    }
}
