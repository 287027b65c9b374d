package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Where MCP session files live: {@code <cassettes>/mcp/<server>/<session>.json}, apart from the model's cassettes
 * (which sit at the top of the cassette folder and are named by fingerprint).
 */
@API(status = INTERNAL, since = "0.1.0")
public final class McpCassetteFiles {

    /** The folder under the cassette folder that holds every server's sessions. */
    public static final String FOLDER = "mcp";

    /** How a session file's name ends. */
    public static final String SUFFIX = ".json";

    // A name that is one path segment on every platform: no separator, no "..", no hidden file.
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    private McpCassetteFiles() {
    }

    /** The folder of {@code server}'s sessions. */
    public static Path serverFolder(Path cassettes, String server) {
        return cassettes.resolve(FOLDER).resolve(requireName("server", server));
    }

    /** The file of one session of {@code server}. */
    public static Path sessionFile(Path cassettes, String server, String session) {
        return serverFolder(cassettes, server).resolve(requireName("session", session) + SUFFIX);
    }

    /** Whether {@code name} can name a server or a session: letters, digits, {@code . _ -}, not first a dot. */
    public static boolean validName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    private static String requireName(String what, String name) {
        if (!validName(name)) {
            throw new IllegalArgumentException(McpMessages.badName(what, name));
        }
        return name;
    }
}
