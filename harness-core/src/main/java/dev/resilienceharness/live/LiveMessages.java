package dev.resilienceharness.live;

/** The sentences the live package shows users, in one place so that tests and docs can quote them exactly. */
public final class LiveMessages {

    /** The most characters of a provider's body any message quotes. */
    static final int EXCERPT_CHARS = 200;

    private LiveMessages() {
    }

    /** Where to put the provider settings, for a config without them. */
    public static final String NO_PROVIDER = "resilience.yaml has no provider section: add provider.base_url and"
            + " provider.api_key_env to resilience.yaml";

    static String missingKey(String env) {
        return "set " + env + " to the provider's API key (resilience.yaml's provider.api_key_env names it); it is"
                + " read from the environment, sent as a Bearer token and never written anywhere";
    }

    static String unexpectedStatus(String op, int status, String excerpt) {
        return "op '" + op + "': the provider answered HTTP " + status + ", which is neither a quota rejection (429)"
                + " nor a transient error (408, 409, 5xx)" + (excerpt.isEmpty() ? "" : ": " + excerpt)
                + ". Check the request declared for the op, the model name and the key";
    }

    static String unusableAnswer(String op, String what, String excerpt) {
        return "op '" + op + "': the provider answered HTTP 200 but " + what
                + (excerpt.isEmpty() ? "" : ": " + excerpt);
    }

    static String cannotConnect(String op, String endpoint, String reason) {
        return "op '" + op + "': cannot connect to " + endpoint + " (" + reason + "). Check provider.base_url";
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
        return "the request body is not JSON: " + excerpt(what == null ? "it does not parse" : what)
                + (at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr()
                        + ")");
    }

    /** What went wrong with a connection, for a message: its cause's words, or what kind of failure it was. */
    static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.nio.channels.UnresolvedAddressException
                    || t instanceof java.net.UnknownHostException) {
                return "the host name does not resolve";
            }
        }
        return e instanceof java.net.ConnectException ? "connection refused: nothing listens there"
                : e.getClass().getSimpleName();
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

    /** A short, one-line quote of a body: control characters and runs of white space become one space. */
    static String excerpt(String body) {
        if (body == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(Math.min(body.length(), EXCERPT_CHARS + 3));
        boolean space = false;
        for (int i = 0; i < body.length() && sb.length() < EXCERPT_CHARS; i++) {
            char c = body.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c)) {
                space = sb.length() > 0;
                continue;
            }
            if (space) {
                sb.append(' ');
                space = false;
            }
            sb.append(c);
        }
        if (sb.length() >= EXCERPT_CHARS && sb.length() < body.strip().length()) {
            sb.append("...");
        }
        return sb.toString();
    }
}
