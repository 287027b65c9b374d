package dev.resilienceharness.mcp.live;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.mcp.McpCassetteReader;
import dev.resilienceharness.mcp.McpCassetteWriter;
import dev.resilienceharness.mcp.McpError;
import dev.resilienceharness.mcp.McpExchange;
import dev.resilienceharness.mcp.McpLive;
import dev.resilienceharness.mcp.McpNotification;
import dev.resilienceharness.mcp.McpServer;
import dev.resilienceharness.mcp.McpSession;
import dev.resilienceharness.mcp.McpTransportKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The real MCP servers of a recording run ({@code mvn resilience:record}): each request no MCP cassette answers is
 * sent to the server the yaml's {@code mcp_servers:} names, over stdio (its command started as a child process) or
 * Streamable HTTP (its url), in a live session opened on the first such request. When that request is not the
 * client's {@code initialize}, the session is opened with the client's own initialize params, and that initialize is
 * recorded too. Offsets are the real elapsed milliseconds. On {@link #close} each session is written to
 * {@code <cassettes>/mcp/<server>/<name>.json}, redacted and re-scanned as model cassettes are, under a name no other
 * session file has. Safe for concurrent use; one request at a time goes to each server.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class LiveMcpServers implements McpLive {

    private static final String INITIALIZE = "initialize";
    private static final String INITIALIZED = "notifications/initialized";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Path cassettes;
    private final Path base;
    private final Map<String, McpServer> servers;
    private final String name;
    private final UnaryOperator<ObjectNode> redaction;
    private final Consumer<String> log;
    private final McpCassetteReader reader;
    private final Map<String, Live> live = new LinkedHashMap<>();
    private final Map<String, JsonNode> clientInitialize = new LinkedHashMap<>();
    private final List<Finished> finished = new ArrayList<>();
    private final List<Path> written = new ArrayList<>();

    /**
     * @param cassettes the cassette folder; sessions go to its {@code mcp/<server>/}
     * @param base      the folder relative stdio working folders are resolved in (the yaml's)
     * @param servers   the yaml's {@code mcp_servers:}
     * @param name      what each session file is named after (a scenario's name); made a valid file name
     * @param redaction the last change to a session before it is written or handed back: masks secrets, fails closed
     * @param log       where the servers' standard error lines and what is written are told
     */
    public LiveMcpServers(Path cassettes, Path base, Collection<McpServer> servers, String name,
            UnaryOperator<ObjectNode> redaction, Consumer<String> log) {
        this.cassettes = cassettes;
        this.base = base;
        this.servers = new LinkedHashMap<>();
        servers.forEach(s -> this.servers.put(s.name(), s));
        this.name = fileName(name);
        this.redaction = redaction;
        this.log = log;
        this.reader = new McpCassetteReader(cassettes);
    }

    /**
     * Tells the client's own {@code initialize} params for {@code server}, answered from a cassette, so that a live
     * session opened later starts as the client's did. Without it they are taken from the server's recorded sessions.
     */
    @Override
    public synchronized void clientInitialize(String server, JsonNode params) {
        clientInitialize.put(server, params == null ? null : params.deepCopy());
    }

    @Override
    public McpExchange.Call call(String server, String method, JsonNode params, Duration timeout) throws IOException {
        Live session = session(server);
        synchronized (session) {
            try {
                if (INITIALIZE.equals(method)) {
                    session.restartIfUsed();
                    McpExchange.Call call = session.ask(method, params, timeout);
                    remember(server, params);
                    return call;
                }
                session.openWith(initializeParams(session.server, method), timeout);
                return session.ask(method, params, timeout);
            } catch (IOException e) {
                session.end();
                throw e;
            }
        }
    }

    @Override
    public void notice(String server, String method, JsonNode params) throws IOException {
        Live session = session(server);
        synchronized (session) {
            // notifications/initialized after an initialize a cassette answered belongs to no live session.
            if (!session.open()) {
                return;
            }
            try {
                session.tell(method, params);
            } catch (IOException e) {
                session.end();
                throw e;
            }
        }
    }

    /** The session files written by {@link #close}, in the order written. */
    public synchronized List<Path> written() {
        return List.copyOf(written);
    }

    /**
     * Ends every live session and writes each that recorded something; a session that cannot be written is told
     * and the others are still written.
     *
     * @throws IOException naming each session that could not be written
     */
    @Override
    public void close() throws IOException {
        List<Live> sessions;
        synchronized (this) {
            sessions = new ArrayList<>(live.values());
        }
        for (Live session : sessions) {
            synchronized (session) {
                session.end();
            }
        }
        List<String> failures = new ArrayList<>();
        List<Finished> all;
        synchronized (this) {
            all = new ArrayList<>(finished);
            finished.clear();
        }
        for (Finished f : all) {
            try {
                Path file = write(f);
                synchronized (this) {
                    written.add(file);
                }
                log.accept("MCP server '" + f.server.name() + "': recorded " + f.exchanges.size() + " exchanges into "
                        + shown(file));
            } catch (IOException | RuntimeException e) {
                // The redaction refuses (fails closed) with an unchecked exception that says why.
                failures.add(LiveMessages.refusedToWrite(f.server, e.getMessage()));
            }
        }
        if (!failures.isEmpty()) {
            throw new IOException(String.join("; ", failures));
        }
    }

    private synchronized Live session(String server) throws IOException {
        McpServer declared = servers.get(server);
        if (declared == null) {
            throw new IOException(LiveMessages.notDeclared(server));
        }
        return live.computeIfAbsent(server, k -> new Live(declared));
    }

    private synchronized void remember(String server, JsonNode params) {
        clientInitialize.putIfAbsent(server, params == null ? null : params.deepCopy());
    }

    /** The client's initialize params: told, or those of the last initialize the server's sessions recorded. */
    private JsonNode initializeParams(McpServer server, String method) throws IOException {
        synchronized (this) {
            if (clientInitialize.containsKey(server.name())) {
                return clientInitialize.get(server.name());
            }
        }
        JsonNode found = null;
        boolean any = false;
        try {
            for (McpSession s : reader.readServer(server.name())) {
                for (McpExchange e : s.exchanges()) {
                    if (e instanceof McpExchange.Call c && INITIALIZE.equals(c.method())) {
                        found = c.params();
                        any = true;
                    }
                }
            }
        } catch (CassetteException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (!any) {
            throw new IOException(LiveMessages.noInitialize(server, method));
        }
        return found;
    }

    private Path write(Finished f) throws IOException {
        McpSession session = new McpSession(f.server.name(), f.server.transport(), f.exchanges);
        ObjectNode redacted = redaction.apply(McpCassetteWriter.toJson(session));
        byte[] text = Json.prettyPrint(redacted).getBytes(StandardCharsets.UTF_8);
        Path file = freeFile(f.server.name());
        AtomicFiles.write(file, text);
        return file;
    }

    /** {@code file} relative to the yaml's folder, as the other lines of a recording show cassettes. */
    private String shown(Path file) {
        Path absolute = file.toAbsolutePath();
        Path from = base.toAbsolutePath();
        return (absolute.startsWith(from) ? from.relativize(absolute) : absolute).toString().replace('\\', '/');
    }

    /** {@code <name>.json}, else {@code <name>-2.json} and on: never another session's file. */
    private Path freeFile(String server) {
        Path file = McpCassetteFiles.sessionFile(cassettes, server, name);
        for (int n = 2; Files.exists(file) || written.contains(file); n++) {
            file = McpCassetteFiles.sessionFile(cassettes, server, name + "-" + n);
        }
        return file;
    }

    private static String fileName(String wanted) {
        String cleaned = wanted == null ? "" : wanted.replaceAll("[^A-Za-z0-9._-]+", "-")
                .replaceAll("^[.-]+", "");
        if (cleaned.length() > 90) {
            cleaned = cleaned.substring(0, 90);
        }
        return McpCassetteFiles.validName(cleaned) ? cleaned : "recorded";
    }

    /** A session ended, waiting to be written. */
    private record Finished(McpServer server, List<McpExchange> exchanges) {
    }

    /** One server's live session: its connection, what it recorded, and when its last answer came. */
    private final class Live {

        private final McpServer server;
        private Wire wire;
        private List<McpExchange> exchanges = new ArrayList<>();
        private long lastNanos;
        private int nextId = 1;

        Live(McpServer server) {
            this.server = server;
        }

        boolean open() {
            return wire != null;
        }

        /** Opens the connection and initializes with {@code params}, unless it is open. */
        void openWith(JsonNode params, Duration timeout) throws IOException {
            if (wire != null) {
                return;
            }
            ask(INITIALIZE, params, timeout);
            tell(INITIALIZED, null);
        }

        /** A client initialize on a session that already has one starts a new session. */
        void restartIfUsed() {
            if (wire != null) {
                end();
            }
        }

        McpExchange.Call ask(String method, JsonNode params, Duration timeout) throws IOException {
            connect();
            JsonNode id = NODES.numberNode(nextId++);
            ObjectNode request = NODES.objectNode();
            request.put("jsonrpc", "2.0");
            request.set("id", id);
            request.put("method", method);
            if (params != null) {
                request.set("params", params.deepCopy());
            }
            long sent = System.nanoTime();
            Wire.Answer answer = wire.request(request, id, timeout);
            lastNanos = answer.response().nanos();
            McpExchange.Call call = redacted(call(method, params, sent, answer));
            exchanges.add(call);
            return call;
        }

        void tell(String method, JsonNode params) throws IOException {
            connect();
            ObjectNode notification = NODES.objectNode();
            notification.put("jsonrpc", "2.0");
            notification.put("method", method);
            if (params != null) {
                notification.set("params", params.deepCopy());
            }
            long now = System.nanoTime();
            wire.notify(notification);
            exchanges.add(new McpExchange.Notice(McpExchange.Sender.CLIENT, millis(now - lastNanos), method,
                    params == null ? null : params.deepCopy()));
            lastNanos = now;
        }

        private void connect() throws IOException {
            if (wire == null) {
                wire = server.transport() == McpTransportKind.STDIO
                        ? StdioWire.start(server, base, line -> log.accept("MCP server '" + server.name() + "': "
                                + line))
                        : HttpWire.open(server);
                lastNanos = System.nanoTime();
            }
        }

        /** Lets the server go and queues what was recorded for writing. */
        void end() {
            if (wire != null) {
                try {
                    wire.close();
                } catch (IOException e) {
                    log.accept(LiveMessages.who(server) + ": " + e.getMessage());
                }
                wire = null;
            }
            if (!exchanges.isEmpty()) {
                synchronized (LiveMcpServers.this) {
                    finished.add(new Finished(server, exchanges));
                }
                exchanges = new ArrayList<>();
            }
            nextId = 1;
        }

        /** The call as it will be replayed: redacted, so that the client sees in recording what it sees later. */
        private McpExchange.Call redacted(McpExchange.Call call) throws IOException {
            ObjectNode one = McpCassetteWriter.toJson(new McpSession(server.name(), server.transport(), List.of(call)));
            ObjectNode clean;
            try {
                clean = redaction.apply(one);
            } catch (RuntimeException e) {
                // The redaction refuses (fails closed) with an unchecked exception that says why.
                throw new IOException(LiveMessages.refusedToWrite(server, e.getMessage()), e);
            }
            try {
                McpSession back = reader.parse(McpCassetteFiles.serverFolder(cassettes, server.name()),
                        Json.prettyPrint(clean).getBytes(StandardCharsets.UTF_8));
                return (McpExchange.Call) back.exchanges().get(0);
            } catch (CassetteException e) {
                throw new IOException(LiveMessages.refusedToWrite(server, e.getMessage()), e);
            }
        }
    }

    private static McpExchange.Call call(String method, JsonNode params, long sent, Wire.Answer answer) {
        List<McpNotification> notifications = new ArrayList<>();
        long before = 0;
        for (Wire.Arrived n : answer.notifications()) {
            long at = Math.max(before, millis(n.nanos() - sent));
            ObjectNode message = n.message();
            notifications.add(new McpNotification(at, message.get("method").asString(),
                    message.has("params") ? message.get("params").deepCopy() : null));
            before = at;
        }
        long at = Math.max(before, millis(answer.response().nanos() - sent));
        ObjectNode response = answer.response().message();
        JsonNode copy = params == null ? null : params.deepCopy();
        if (response.has("error")) {
            JsonNode error = response.get("error");
            McpError e = new McpError(error.path("code").asLong(0), error.path("message").asString(""),
                    error.has("data") ? error.get("data").deepCopy() : null);
            return new McpExchange.Call(method, copy, notifications, at, null, e);
        }
        return new McpExchange.Call(method, copy, notifications, at, null == response.get("result") ? null
                : response.get("result").deepCopy(), null);
    }

    private static long millis(long nanos) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(nanos));
    }
}
