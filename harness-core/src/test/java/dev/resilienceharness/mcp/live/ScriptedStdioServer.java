package dev.resilienceharness.mcp.live;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in stdio MCP server the tests start as a real child process: {@code echo} answers each request with its own
 * method and params, {@code garbage} answers the first with a line that is not JSON-RPC, {@code exit} writes a line
 * to standard error and exits with code 3.
 */
public final class ScriptedStdioServer {

    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static final Pattern METHOD = Pattern.compile("\"method\":\"([^\"]+)\"");

    private ScriptedStdioServer() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            Matcher id = ID.matcher(line);
            if (!id.find()) {
                continue; // a notification
            }
            switch (mode) {
                case "garbage" -> {
                    System.out.println("Server listening on stdio, have fun");
                    System.out.flush();
                }
                case "exit" -> {
                    System.err.println("cannot open billing.db");
                    System.exit(3);
                }
                default -> {
                    Matcher method = METHOD.matcher(line);
                    method.find();
                    System.out.println("{\"jsonrpc\":\"2.0\",\"id\":" + id.group(1) + ",\"result\":{\"method\":\""
                            + method.group(1) + "\",\"key\":\"" + ("sk_" + "live_" + "Tq8Wm2Kd5Lx9Rv3Nb7Hc4Yz")
                            + "\"}}");
                    System.out.flush();
                }
            }
        }
    }

    /** The command that starts this server in {@code mode} with the current JVM and class path. */
    static List<String> command(String mode) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return List.of(java, "-cp", System.getProperty("java.class.path"), ScriptedStdioServer.class.getName(), mode);
    }
}
