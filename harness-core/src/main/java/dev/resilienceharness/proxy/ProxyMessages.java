package dev.resilienceharness.proxy;

import dev.resilienceharness.live.LiveMessages;

/** The sentences the replay proxy shows users, in one place so that tests and docs can quote them exactly. */
final class ProxyMessages {

    private ProxyMessages() {
    }

    static String cassetteMiss(String fingerprint, String folder, String nearest) {
        return "no cassette answers this request: looked for " + fingerprint + ".json in " + folder
                + (nearest == null ? "" : "; " + nearest)
                + ". To record it, run mvn resilience:record, or serve with -Dresilience.mode=record-missing";
    }

    /** A request body too large for the proxy. */
    static final String TOO_LARGE = "the request body is larger than 16 MiB, the most this proxy reads";

    /** A request body that does not parse, without the parser's internals: what it expected, and where. */
    static String notJson(tools.jackson.core.JacksonException e) {
        String what = e.getOriginalMessage();
        var at = e.getLocation();
        return "the request body is not JSON: " + LiveMessages.excerpt(what == null ? "it does not parse" : what)
                + (at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr()
                        + ")");
    }

    /** How one proxy serves a whole test suite, for the line printed when it starts. */
    static final String RESET_HINT = "POST /_harness/reset?scenario=NAME starts a fresh run of a scenario's faults";

    /** What the admin paths are, for a request to one that does not exist. */
    static final String ADMIN_PATHS = "the proxy's own paths are POST /_harness/reset (no faults) and"
            + " POST /_harness/reset?scenario=NAME (a fresh run of NAME's fault plan)";

    static String noScenario(String name, dev.resilienceharness.config.HarnessConfig config) {
        return "no scenario '" + name + "' in " + config.file() + "; there are "
                + config.scenarios().stream().map(dev.resilienceharness.config.Scenario::name).toList();
    }

    /** The line logged for each request the proxy answers. */
    static String requestLine(String method, String path, String label, String fault, String status, long ms) {
        return method + " " + path + " " + label + ", fault " + fault + ": " + status + " in " + ms + " ms";
    }

    static String reportWritten(int runs, java.nio.file.Path json) {
        return "Checked " + runs + (runs == 1 ? " run" : " runs") + " for call budget and waiting: " + json;
    }

    static String reportNotWritten(java.nio.file.Path dir, java.io.IOException e) {
        return "cannot write the report of the runs served to " + dir + ": " + e.getMessage();
    }

    static final String MCP_NO_SESSION = "Bad Request: the Mcp-Session-Id header is required; send initialize first";
    static final String MCP_UNKNOWN_SESSION = "Session not found: initialize again";
    static final String MCP_RATE_LIMITED = "Too many requests (an injected rate_limited fault)";

    static String noMcpServer(String server, java.util.Collection<String> declared) {
        return "this proxy serves no MCP server '" + server + "'" + (declared.isEmpty()
                ? "; declare it under mcp_servers: in the yaml"
                : "; it serves " + String.join(", ", declared.stream().map(n -> McpRoute.PREFIX + n).toList()));
    }
}
