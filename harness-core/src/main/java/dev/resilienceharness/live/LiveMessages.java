package dev.resilienceharness.live;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** The sentences the live package shows users, in one place so that tests and docs can quote them exactly. */
@API(status = INTERNAL, since = "0.1.0")
public final class LiveMessages {

    /** The most characters of a provider's body any message quotes. */
    static final int EXCERPT_CHARS = 200;

    private LiveMessages() {
    }

    /** Where to put the provider settings, for a config without them. */
    public static final String NO_PROVIDER = noProvider("resilience.yaml");

    /** Where to put the provider settings, for the config file {@code configFile} (its name) without them. */
    public static String noProvider(String configFile) {
        return configFile + " has no provider section: add provider.base_url and provider.api_key_env to "
                + configFile;
    }

    /** Why the recording pass sends nothing for an op without a {@code requests:} entry, and what to do. */
    public static final String UNDECLARED_REQUEST = "not sent: the yaml declares no request for it. Declare it under"
            + " requests:, or record through the loop that sends it: loop: com.acme.MyLoop in the yaml, or"
            + " -Dresilience.loop=com.acme.MyLoop";

    /** Why a Bedrock Converse request is not sent: the yaml names no key, the environment holds no AWS credentials. */
    public static final String BEDROCK_NO_CREDENTIALS = "not sent: Amazon Bedrock takes an Amazon Bedrock API key or"
            + " AWS credentials, and neither is set. Name the variable holding a Bedrock API key in"
            + " provider.api_key_env (such as AWS_BEARER_TOKEN_BEDROCK; sent as a Bearer token), or leave api_key_env"
            + " out and set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN with temporary"
            + " credentials) to sign with SigV4. Neither is ever written anywhere";

    /** Why a Bedrock Converse request is not signed: AWS credentials are set, but no region to sign for. */
    public static final String BEDROCK_NO_REGION = "not sent: AWS SigV4 signs for a region, and neither"
            + " provider.base_url's host (bedrock-runtime.<region>.amazonaws.com) nor AWS_REGION names one. Set"
            + " AWS_REGION, or set base_url to https://bedrock-runtime.<region>.amazonaws.com";

    /** Why a Messages request made through Vertex AI is not sent: neither base URL nor environment names where. */
    public static final String VERTEX_NO_PROJECT = "not sent: Vertex AI serves Anthropic's models below"
            + " projects/<project>/locations/<region>/, and the project or region is not known. Set"
            + " ANTHROPIC_VERTEX_PROJECT_ID and, unless provider.base_url's host is <region>-aiplatform.googleapis.com,"
            + " CLOUD_ML_REGION (as anthropic-java's Vertex backend reads them), or end base_url with"
            + " /v1/projects/<project>/locations/<region>";


    static String missingKey(String env) {
        return missingKey(env, "resilience.yaml");
    }

    /** The sentence for an unset key, naming the configuration file whose {@code provider.api_key_env} names it. */
    static String missingKey(String env, String configFile) {
        return "set " + env + " to the provider's API key (" + configFile + "'s provider.api_key_env names it); it is"
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

    /** A short, one-line quote of a body: control characters and runs of white space become one space. */
    public static String excerpt(String body) {
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
