package com.acme;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small stdio MCP server on the JDK alone: initialize, and one tool, find_refund, whose answer carries a
 * processor key a careless backend leaks. Each start is noted in target/ledger-starts.txt.
 */
public final class LedgerServer {

    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static final Pattern METHOD = Pattern.compile("\"method\":\"([^\"]+)\"");

    private LedgerServer() {
    }

    public static void main(String[] args) throws Exception {
        Files.writeString(Path.of("target", "ledger-starts.txt"), "started\n", StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        System.err.println("ledger ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            Matcher id = ID.matcher(line);
            Matcher method = METHOD.matcher(line);
            if (!id.find() || !method.find()) {
                continue; // a notification
            }
            String result = switch (method.group(1)) {
                case "initialize" -> "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                        + "\"serverInfo\":{\"name\":\"ledger\",\"version\":\"1.0\"}}";
                case "tools/call" -> "{\"content\":[{\"type\":\"text\",\"text\":\"refund rf-1 of 12.5; processor key "
                        + "sk_" + "live_" + "Lw2XcQm4Zt7R3fundDesk9Kp" + "\"}],\"isError\":false}";
                default -> "{}";
            };
            System.out.println("{\"jsonrpc\":\"2.0\",\"id\":" + id.group(1) + ",\"result\":" + result + "}");
            System.out.flush();
        }
    }
}
