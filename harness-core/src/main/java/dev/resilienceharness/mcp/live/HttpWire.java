package dev.resilienceharness.mcp.live;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.mcp.McpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Streamable HTTP MCP server: each message POSTed to the configured url with {@code Accept: application/json,
 * text/event-stream}, the answer read as one JSON body or as a server-sent event stream up to the response. The
 * {@code Mcp-Session-Id} the server gives on {@code initialize} and the protocol version it agrees to go with every
 * later message; closing DELETEs the session.
 */
final class HttpWire implements Wire {

    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_BODY_CHARS = 200;

    private final McpServer server;
    private final URI url;
    private final HttpClient client;
    private volatile String sessionId;
    private volatile String protocolVersion;

    private HttpWire(McpServer server, URI url, HttpClient client) {
        this.server = server;
        this.url = url;
        this.client = client;
    }

    /** A connection to {@code server}'s url; nothing is sent until the first message. */
    static HttpWire open(McpServer server) throws IOException {
        if (server.url() == null || server.url().isBlank()) {
            throw new IOException(LiveMessages.noUrl(server));
        }
        URI url;
        try {
            url = URI.create(server.url());
        } catch (IllegalArgumentException e) {
            throw new IOException(LiveMessages.badUrl(server, e.getMessage()), e);
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
            throw new IOException(LiveMessages.badUrl(server, "it needs http:// or https:// and a host"));
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
                .version(HttpClient.Version.HTTP_1_1).build();
        return new HttpWire(server, url, client);
    }

    @Override
    public Answer request(ObjectNode request, JsonNode id, Duration timeout) throws IOException {
        String method = request.path("method").asString("");
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpResponse<InputStream> response = post(request, method, timeout);
        try (InputStream body = response.body()) {
            int status = response.statusCode();
            if (status != 200) {
                throw new IOException(LiveMessages.status(server, method, status, head(body)));
            }
            response.headers().firstValue(SESSION_HEADER).ifPresent(s -> sessionId = s);
            String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
            Answer answer = within(() -> type.startsWith("text/event-stream") ? events(body, id, method)
                    : single(body, id, method), body, method, deadline, timeout);
            if ("initialize".equals(method)) {
                JsonNode agreed = answer.response().message().path("result").path("protocolVersion");
                if (agreed.isString()) {
                    protocolVersion = agreed.asString();
                }
            }
            return answer;
        }
    }

    @Override
    public void notify(ObjectNode notification) throws IOException {
        String method = notification.path("method").asString("");
        HttpResponse<InputStream> response = post(notification, method, CONNECT_TIMEOUT);
        try (InputStream body = response.body()) {
            int status = response.statusCode();
            if (status / 100 != 2) {
                throw new IOException(LiveMessages.status(server, method, status, head(body)));
            }
        }
    }

    private HttpResponse<InputStream> post(ObjectNode message, String method, Duration timeout) throws IOException {
        HttpRequest.Builder post = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(Json.compact(message), StandardCharsets.UTF_8));
        withSession(post);
        try {
            return client.send(post.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (java.net.http.HttpTimeoutException e) {
            if (e instanceof HttpConnectTimeoutException) {
                throw new IOException(LiveMessages.refused(server, "connecting timed out"), e);
            }
            throw new IOException(LiveMessages.noAnswer(server, method, timeout), e);
        } catch (ConnectException e) {
            throw new IOException(LiveMessages.refused(server, "connection refused"), e);
        } catch (IOException e) {
            throw new IOException(LiveMessages.refused(server, String.valueOf(e.getMessage())), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(LiveMessages.noAnswer(server, method, timeout), e);
        }
    }

    private void withSession(HttpRequest.Builder request) {
        if (sessionId != null) {
            request.header(SESSION_HEADER, sessionId);
        }
        if (protocolVersion != null) {
            request.header(VERSION_HEADER, protocolVersion);
        }
    }

    /** A JSON body: the response itself. */
    private Answer single(InputStream body, JsonNode id, String method) throws IOException {
        String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
        ObjectNode message = parse(text, method);
        if (!Wire.answers(message, id)) {
            throw new IOException(LiveMessages.garbage(server, method, text));
        }
        return new Answer(List.of(), new Arrived(System.nanoTime(), message));
    }

    /** A server-sent event stream: notifications, then the response; what follows it is not read. */
    private Answer events(InputStream body, JsonNode id, String method) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        List<Arrived> notifications = new ArrayList<>();
        StringBuilder data = new StringBuilder();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (line.startsWith("data:")) {
                String value = line.substring(5);
                data.append(data.length() == 0 ? "" : "\n").append(value.startsWith(" ") ? value.substring(1) : value);
                continue;
            }
            if (!line.isEmpty() || data.length() == 0) {
                continue; // event:, id:, retry: and comments tell nothing the recording keeps
            }
            ObjectNode message = parse(data.toString(), method);
            data.setLength(0);
            long now = System.nanoTime();
            if (Wire.answers(message, id)) {
                return new Answer(notifications, new Arrived(now, message));
            }
            if (Wire.isNotification(message)) {
                notifications.add(new Arrived(now, message));
            } else if (Wire.isServerRequest(message)) {
                notify(Wire.replyToServer(message));
            }
        }
        throw new IOException(LiveMessages.exited(server, method, "its event stream ended without the answer",
                null));
    }

    private ObjectNode parse(String text, String method) throws IOException {
        JsonNode node = Json.readTreeOrNull(text);
        if (node == null || !node.isObject() || !"2.0".equals(node.path("jsonrpc").asString(""))) {
            throw new IOException(LiveMessages.garbage(server, method, text));
        }
        return (ObjectNode) node;
    }

    /** Reading what the server sends is bounded by the request's timeout; past it the stream is closed. */
    private Answer within(Reading reading, InputStream body, String method, long deadline, Duration timeout)
            throws IOException {
        // A thread of its own: a stream the server holds open must not block a pool the run's own work shares.
        CompletableFuture<Answer> read = CompletableFuture.supplyAsync(() -> {
            try {
                return reading.read();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, task -> {
            Thread reader = new Thread(task, "mcp-" + server.name() + "-http");
            reader.setDaemon(true);
            reader.start();
        });
        try {
            return read.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            body.close();
            throw new IOException(LiveMessages.noAnswer(server, method, timeout), e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof java.io.UncheckedIOException u) {
                throw u.getCause();
            }
            throw new IOException(LiveMessages.garbage(server, method, String.valueOf(cause)), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            body.close();
            throw new IOException(LiveMessages.noAnswer(server, method, timeout), e);
        }
    }

    private interface Reading {
        Answer read() throws IOException;
    }

    private static String head(InputStream body) {
        try {
            byte[] bytes = body.readNBytes(MAX_BODY_CHARS * 4);
            String text = new String(bytes, StandardCharsets.UTF_8).strip();
            return text.length() > MAX_BODY_CHARS ? text.substring(0, MAX_BODY_CHARS) + "…" : text;
        } catch (IOException e) {
            return "";
        }
    }

    /** DELETEs the session, when the server gave one; a server that does not allow it is left to end it itself. */
    @Override
    public void close() {
        if (sessionId == null) {
            return;
        }
        HttpRequest.Builder delete = HttpRequest.newBuilder(url).timeout(CONNECT_TIMEOUT).DELETE();
        withSession(delete);
        try {
            client.send(delete.build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // The session ends on the server's side in time; the recording is already complete.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
