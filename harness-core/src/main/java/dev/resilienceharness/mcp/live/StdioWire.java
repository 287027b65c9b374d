package dev.resilienceharness.mcp.live;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.mcp.McpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stdio MCP server: the configured command started as a child process, newline-delimited JSON-RPC on its standard
 * input and output, its standard error drained into the run log line by line. Closing ends its input, waits a little
 * for it to exit, then stops it.
 */
final class StdioWire implements Wire {

    private static final Duration EXIT_GRACE = Duration.ofSeconds(5);

    /** A line from the server's output, or the end of it ({@code line == null}). */
    private record Line(long nanos, String line) {
    }

    private final McpServer server;
    private final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
    private volatile String lastError;
    private boolean ended;

    private StdioWire(McpServer server, Process process, Consumer<String> log) {
        this.server = server;
        this.process = process;
        this.stdin = process.getOutputStream();
        String name = "mcp-" + server.name();
        Thread out = new Thread(this::readOutput, name + "-stdout");
        out.setDaemon(true);
        out.start();
        Thread err = new Thread(() -> drainErrors(log), name + "-stderr");
        err.setDaemon(true);
        err.start();
    }

    /**
     * Starts {@code server}'s command in {@code base} (the yaml's folder), relative working folders resolved there.
     *
     * @param log where each line of its standard error goes
     * @throws IOException naming the server and the command when it cannot be started
     */
    static StdioWire start(McpServer server, Path base, Consumer<String> log) throws IOException {
        if (server.command().isEmpty()) {
            throw new IOException(LiveMessages.noCommand(server));
        }
        ProcessBuilder builder = new ProcessBuilder(server.command());
        builder.environment().putAll(server.env());
        builder.directory((server.workingDir() == null ? base : base.resolve(server.workingDir())).toFile());
        try {
            return new StdioWire(server, builder.start(), log);
        } catch (IOException e) {
            throw new IOException(LiveMessages.cannotStart(server, String.valueOf(e.getMessage())), e);
        }
    }

    private void readOutput() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank()) {
                    lines.add(new Line(System.nanoTime(), line));
                }
            }
        } catch (IOException e) {
            // The process went away; the end is told below.
        }
        lines.add(new Line(System.nanoTime(), null));
    }

    private void drainErrors(Consumer<String> log) {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lastError = line;
                log.accept(line);
            }
        } catch (IOException e) {
            // Nothing more to drain.
        }
    }

    @Override
    public synchronized Answer request(ObjectNode request, JsonNode id, Duration timeout) throws IOException {
        String method = request.path("method").asString("");
        write(request, method);
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Arrived> notifications = new ArrayList<>();
        while (true) {
            Line next = next(method, deadline, timeout);
            ObjectNode message = parse(next.line(), method);
            if (Wire.answers(message, id)) {
                return new Answer(notifications, new Arrived(next.nanos(), message));
            }
            if (Wire.isServerRequest(message)) {
                answerServer(message, method);
            } else if (Wire.isNotification(message)) {
                notifications.add(new Arrived(next.nanos(), message));
            }
            // A response to another id is a late answer to a request given up on: not this one's.
        }
    }

    @Override
    public synchronized void notify(ObjectNode notification) throws IOException {
        write(notification, notification.path("method").asString(""));
    }

    private Line next(String method, long deadline, Duration timeout) throws IOException {
        if (ended) {
            throw new IOException(LiveMessages.exited(server, method, exit(), lastError));
        }
        Line next;
        try {
            next = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(LiveMessages.noAnswer(server, method, timeout), e);
        }
        if (next == null) {
            throw new IOException(LiveMessages.noAnswer(server, method, timeout));
        }
        if (next.line() == null) {
            ended = true;
            throw new IOException(LiveMessages.exited(server, method, exit(), lastError));
        }
        return next;
    }

    private ObjectNode parse(String line, String method) throws IOException {
        JsonNode node = Json.readTreeOrNull(line);
        if (node == null || !node.isObject() || !"2.0".equals(node.path("jsonrpc").asString(""))) {
            throw new IOException(LiveMessages.garbage(server, method, line));
        }
        return (ObjectNode) node;
    }

    /** The server asked something of the client mid-request: {@link Wire#replyToServer} answers it. */
    private void answerServer(ObjectNode ask, String method) throws IOException {
        write(Wire.replyToServer(ask), method);
    }

    private void write(ObjectNode message, String method) throws IOException {
        try {
            stdin.write((Json.compact(message) + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw new IOException(LiveMessages.exited(server, method, exit(), lastError), e);
        }
    }

    private String exit() {
        try {
            if (process.waitFor(1, TimeUnit.SECONDS)) {
                return "exit code " + process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "its output closed";
    }

    @Override
    public void close() throws IOException {
        try {
            stdin.close();
        } catch (IOException e) {
            // Already gone.
        }
        try {
            if (!process.waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroy();
                if (!process.waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
