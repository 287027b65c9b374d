package dev.resilienceharness.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.TransientError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A loopback, OpenAI-compatible endpoint ({@code POST /v1/chat/completions} and {@code POST /chat/completions})
 * for loops written with any client or language. In replay mode it answers from the cassettes by the request's
 * fingerprint and applies a scenario's fault plan as real HTTP, one entry per request: {@code quota} is a 429
 * (with {@code Retry-After} when the fault states one), {@code server_error} its status, {@code timeout} a delay
 * then 504, {@code slow_first_token} a late first chunk (or a late answer), {@code bad_tool_call} a 200 whose
 * tool-call arguments are broken JSON, and {@code crash} a connection closed without an answer. In the record
 * modes it forwards to the provider and writes cassettes, redacted. A {@code "stream": true} request is answered
 * as server-sent events. Delays are multiplied by the time factor.
 */
public final class ReplayProxy implements AutoCloseable {

    /** The virtual clock's epoch (2026-01-01T00:00:00Z): the {@code created} of a replayed answer that has none. */
    static final long REPLAY_CREATED = 1_767_225_600L;
    /** How long a {@code timeout} fault keeps the client waiting before the 504, before the time factor. */
    public static final Duration DEFAULT_TIMEOUT_DELAY = Duration.ofSeconds(10);
    static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final CassetteStore store;
    private final List<Fault> plan;
    private final ProviderCall upstream;
    private final double timeFactor;
    private final Duration timeoutDelay;
    private final int requestedPort;
    private final AtomicInteger nextFault = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private HttpServer server;
    private ExecutorService executor;

    private ReplayProxy(Builder b) {
        this.store = new CassetteStore(b.config.cassettes(), VolatilePaths.of(b.config.volatilePaths()), b.mode,
                b.redaction);
        this.plan = b.scenario == null ? List.of() : b.scenario.faults();
        this.upstream = b.upstream;
        this.timeFactor = b.timeFactor;
        this.timeoutDelay = b.timeoutDelay;
        this.requestedPort = b.port;
    }

    /** Starts describing a proxy over {@code config}'s cassettes; replay mode on an ephemeral port by default. */
    public static Builder builder(HarnessConfig config) {
        return new Builder(config);
    }

    /**
     * The proxy {@code options} describe, its provider taken from {@code config} in the record modes.
     *
     * @param env       looks up the key's environment variable ({@code System::getenv} outside tests)
     * @param redaction applied to every cassette before it is written
     * @throws MissingApiKey            when recording and the key's variable is not set
     * @throws IllegalArgumentException when recording without a provider section, or the scenario is unknown
     */
    public static ReplayProxy forOptions(HarnessConfig config, ServeOptions options, Function<String, String> env,
            UnaryOperator<ObjectNode> redaction) throws MissingApiKey {
        Builder b = builder(config).mode(options.mode()).port(options.port()).timeFactor(options.timeFactor())
                .redaction(redaction);
        if (options.mode() != Mode.REPLAY) {
            if (config.provider() == null) {
                throw new IllegalArgumentException(LiveMessages.NO_PROVIDER);
            }
            b.upstream(LiveTransport.connect(config.provider(), env));
        }
        if (options.scenario() != null) {
            b.scenario(options.scenario());
        }
        return b.build();
    }

    /** Describes a proxy. */
    public static final class Builder {
        private final HarnessConfig config;
        private Mode mode = Mode.REPLAY;
        private Scenario scenario;
        private ProviderCall upstream;
        private UnaryOperator<ObjectNode> redaction = UnaryOperator.identity();
        private int port;
        private double timeFactor = 1.0;
        private Duration timeoutDelay = DEFAULT_TIMEOUT_DELAY;

        private Builder(HarnessConfig config) {
            this.config = Objects.requireNonNull(config, "config");
        }

        /** Replay (the default), record or record-missing. */
        public Builder mode(Mode m) {
            this.mode = Objects.requireNonNull(m, "mode");
            return this;
        }

        /** Applies this scenario's fault plan in replay mode, one entry per request. */
        public Builder scenario(Scenario s) {
            this.scenario = s;
            return this;
        }

        /**
         * Applies the fault plan of the scenario called {@code name}.
         *
         * @throws IllegalArgumentException naming the scenarios there are, when none has that name
         */
        public Builder scenario(String name) {
            for (Scenario s : config.scenarios()) {
                if (s.name().equals(name)) {
                    return scenario(s);
                }
            }
            throw new IllegalArgumentException("no scenario '" + name + "' in " + config.file() + "; there are "
                    + config.scenarios().stream().map(Scenario::name).toList());
        }

        /** Where the record modes send requests. */
        public Builder upstream(ProviderCall call) {
            this.upstream = call;
            return this;
        }

        /** The last change to each cassette before it is written. */
        public Builder redaction(UnaryOperator<ObjectNode> r) {
            this.redaction = Objects.requireNonNull(r, "redaction");
            return this;
        }

        /** The loopback port; 0 (the default) picks a free one. */
        public Builder port(int p) {
            if (p < 0 || p > 65535) {
                throw new IllegalArgumentException("port must be 0-65535, was " + p);
            }
            this.port = p;
            return this;
        }

        /** Multiplies every injected or recorded delay; 1 by default. */
        public Builder timeFactor(double f) {
            if (!(f >= 0) || Double.isInfinite(f)) {
                throw new IllegalArgumentException("the time factor must be 0 or more, was " + f);
            }
            this.timeFactor = f;
            return this;
        }

        /** How long a {@code timeout} fault waits before its 504, before the time factor. */
        public Builder timeoutDelay(Duration d) {
            this.timeoutDelay = Objects.requireNonNull(d, "timeoutDelay");
            return this;
        }

        /**
         * The proxy, not yet listening.
         *
         * @throws IllegalArgumentException when a record mode has no upstream, or a fault plan is asked for outside
         *                                  replay mode
         */
        public ReplayProxy build() {
            if (mode != Mode.REPLAY && upstream == null) {
                throw new IllegalArgumentException("recording needs the provider to forward to");
            }
            if (mode != Mode.REPLAY && scenario != null) {
                throw new IllegalArgumentException("a scenario's fault plan applies in replay mode only");
            }
            return new ReplayProxy(this);
        }
    }

    /** Starts listening on 127.0.0.1. */
    public synchronized ReplayProxy start() throws IOException {
        if (server != null) {
            return this;
        }
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), requestedPort), 0);
        executor = Executors.newFixedThreadPool(16, r -> {
            Thread t = new Thread(r, "resilience-proxy");
            t.setDaemon(true);
            return t;
        });
        s.setExecutor(executor);
        s.createContext("/", this::handle);
        s.start();
        server = s;
        return this;
    }

    /** The bound port. */
    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("the proxy is not started");
        }
        return server.getAddress().getPort();
    }

    /** The base URL to point an OpenAI client at: {@code http://127.0.0.1:<port>/v1}. */
    public URI baseUrl() {
        return URI.create("http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + port() + "/v1");
    }

    /** How many chat-completion requests arrived. */
    public int requests() {
        return requests.get();
    }

    public Mode mode() {
        return store.mode();
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            executor.shutdownNow();
            server = null;
        }
    }

    // --- handling ---------------------------------------------------------------------------------------------

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            if (!path.equals("/v1/chat/completions") && !path.equals("/chat/completions")) {
                error(ex, 404, "not_found", "this proxy answers POST /v1/chat/completions only, not " + path, null);
                return;
            }
            if (!"POST".equals(ex.getRequestMethod())) {
                ex.getResponseHeaders().set("Allow", "POST");
                error(ex, 405, "invalid_request_error", "use POST for " + path, null);
                return;
            }
            requests.incrementAndGet();
            JsonNode parsed;
            try {
                parsed = Json.readTree(readBody(ex.getRequestBody()));
            } catch (JacksonException | IOException e) {
                error(ex, 400, "invalid_request_error", "the request body is not one JSON object: "
                        + LiveMessages.excerpt(e.getMessage()), null);
                return;
            }
            if (!(parsed instanceof ObjectNode request)) {
                error(ex, 400, "invalid_request_error", "the request body is not a JSON object", null);
                return;
            }
            if (store.mode() == Mode.REPLAY) {
                replay(ex, request);
            } else {
                record(ex, request);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void replay(HttpExchange ex, ObjectNode request) throws IOException, InterruptedException {
        int index = nextFault.getAndIncrement();
        Fault fault = index < plan.size() ? plan.get(index) : NoFault.INSTANCE;
        if (fault instanceof CrashFault) {
            ex.getRequestBody().close();
            return; // closing the exchange before any header is sent drops the connection
        }
        if (fault instanceof QuotaFault q) {
            if (q.retryAfter() != null) {
                ex.getResponseHeaders().set("Retry-After", q.retryAfter());
            }
            error(ex, 429, "rate_limit_exceeded", "injected quota fault: rate limit reached"
                    + (q.retryAfter() == null ? "" : "; retry after " + q.retryAfter()), null);
            return;
        }
        if (fault instanceof ServerErrorFault s) {
            error(ex, s.status(), "server_error", "injected server_error fault", null);
            return;
        }
        if (fault instanceof TimeoutFault) {
            sleep(timeoutDelay.toMillis());
            error(ex, 504, "timeout", "injected timeout fault: the provider did not answer in time", null);
            return;
        }
        Cassette cassette;
        try {
            cassette = find(request);
        } catch (CassetteException e) {
            error(ex, 500, "cassette_unusable", e.getMessage() + ". Fix or re-record it", store.fingerprint(request));
            return;
        }
        if (cassette == null) {
            String fp = store.fingerprint(request);
            error(ex, 404, "cassette_miss", LiveMessages.cassetteMiss(fp, store.folder().toString(), nearest(request)),
                    fp);
            return;
        }
        JsonNode body = answerable(cassette);
        if (fault instanceof BadToolCallFault) {
            body = BrokenToolCalls.of(body, request);
        }
        long delay = cassette.timing() == null || cassette.timing().firstTokenMs() == null ? 0
                : cassette.timing().firstTokenMs();
        if (fault instanceof SlowFirstTokenFault slow) {
            delay = slow.elapsedMs();
        }
        answer(ex, request, body, delay);
    }

    private void record(HttpExchange ex, ObjectNode request) throws IOException, InterruptedException {
        String op = request.path("model").isString() ? "proxy request for " + request.get("model").asString()
                : "proxy request";
        Cassette cassette;
        try {
            cassette = store.exchange(op, request, r -> {
                try {
                    return upstream.send(op, r);
                } catch (CallFailure | UnexpectedStatus e) {
                    throw new Upstream(e);
                }
            });
        } catch (Upstream e) {
            relay(ex, e.getCause());
            return;
        } catch (CassetteException e) {
            error(ex, 500, "cassette_unusable", e.getMessage(), store.fingerprint(request));
            return;
        } catch (IOException e) {
            error(ex, 502, "upstream_unreachable", e.getMessage(), null);
            return;
        } catch (RecordingRedaction.Refused e) {
            error(ex, 500, "redaction_refused", e.getMessage(), store.fingerprint(request));
            return;
        }
        answer(ex, request, answerable(cassette), 0);
    }

    /** Tells the client what the provider said, as the provider would have said it. */
    private void relay(HttpExchange ex, Throwable failure) throws IOException {
        if (failure instanceof QuotaExhausted q) {
            if (q.retryAfter() != null) {
                ex.getResponseHeaders().set("Retry-After", q.retryAfter());
            }
            error(ex, 429, "rate_limit_exceeded", "the provider rejected the request for quota", null);
        } else if (failure instanceof TransientError t) {
            error(ex, t.isTimeout() ? 504 : t.status(), "server_error", t.isTimeout()
                    ? "the provider timed out or dropped the connection" : "the provider answered " + t.status(),
                    null);
        } else if (failure instanceof UnexpectedStatus u) {
            error(ex, u.status() == 200 ? 502 : u.status(), "upstream_error", u.getMessage(), null);
        } else {
            error(ex, 502, "upstream_error", String.valueOf(failure.getMessage()), null);
        }
    }

    /** Carries the provider's failure out of {@link CassetteStore.LiveCall}. */
    private static final class Upstream extends IOException {
        Upstream(Exception cause) {
            super(cause.getMessage(), cause);
        }
    }

    private Cassette find(ObjectNode request) throws CassetteException {
        Cassette c = store.get(store.fingerprint(request));
        if (c == null && request.path("stream").asBoolean(false)) {
            // A streaming client may replay a cassette recorded without streaming, with or without "stream": false.
            ObjectNode plain = request.deepCopy();
            plain.remove(List.of("stream", "stream_options"));
            c = store.get(store.fingerprint(plain));
            if (c == null) {
                plain.put("stream", false);
                c = store.get(store.fingerprint(plain));
            }
        }
        return c;
    }

    private String nearest(ObjectNode request) {
        try {
            store.replay("proxy request", request);
            return null;
        } catch (CassetteMiss m) {
            return m.nearestFile() == null ? null : "the nearest recorded request is " + m.nearestFile()
                    + ", which differs at " + String.join(", ", m.differingPaths());
        } catch (CassetteException e) {
            return null;
        }
    }

    /** A recorded body with the identifiers stripping removed put back, so that strict clients accept it. */
    private JsonNode answerable(Cassette cassette) {
        JsonNode body = cassette.response();
        if (!(body instanceof ObjectNode o) || !o.has("choices")) {
            return body;
        }
        if (o.has("id") && o.has("created") && o.has("object")) {
            return body;
        }
        ObjectNode out = NODES.objectNode();
        out.put("id", o.path("id").asString("chatcmpl-" + cassette.fingerprint()));
        out.set("object", o.has("object") ? o.get("object") : NODES.stringNode("chat.completion"));
        out.set("created", o.has("created") ? o.get("created") : NODES.numberNode(REPLAY_CREATED));
        o.properties().forEach(e -> out.set(e.getKey(), e.getValue()));
        return out;
    }

    private void answer(HttpExchange ex, ObjectNode request, JsonNode body, long delayMs)
            throws IOException, InterruptedException {
        if (!request.path("stream").asBoolean(false)) {
            sleep(delayMs);
            send(ex, 200, "application/json", Json.compact(body));
            return;
        }
        boolean usage = request.path("stream_options").path("include_usage").asBoolean(false);
        List<String> events = StreamChunks.of(body, usage);
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        for (int i = 0; i < events.size(); i++) {
            if (i == 0) {
                sleep(delayMs); // the headers are out; the first token is late
            }
            out.write(("data: " + events.get(i) + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
        out.close();
    }

    private void error(HttpExchange ex, int status, String type, String message, String fingerprint)
            throws IOException {
        ObjectNode body = NODES.objectNode();
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.put("code", type);
        if (fingerprint != null) {
            error.put("fingerprint", fingerprint);
        }
        send(ex, status, "application/json", Json.compact(body));
    }

    private static void send(HttpExchange ex, int status, String contentType, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private void sleep(long ms) throws InterruptedException {
        long scaled = Math.round(ms * timeFactor);
        if (scaled > 0) {
            Thread.sleep(scaled);
        }
    }

    private static byte[] readBody(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) > 0) {
            if (out.size() + n > MAX_REQUEST_BYTES) {
                throw new IOException("the request is larger than " + MAX_REQUEST_BYTES + " bytes");
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    // --- command line -----------------------------------------------------------------------------------------

    /**
     * Serves until the process is killed: {@code --config resilience.yaml --mode replay|record|record-missing
     * --port 8089 --scenario NAME --time-factor 1.0}. The key, when recording, comes from the environment.
     */
    public static void main(String[] args) throws InterruptedException {
        int status = run(args, System::getenv, System.out, System.err, new CountDownLatch(1));
        if (status != 0) {
            System.exit(status);
        }
    }

    /** {@link #main} with its surroundings passed in; returns the exit status once {@code stop} opens. */
    static int run(String[] args, Function<String, String> env, PrintStream out, PrintStream err,
            CountDownLatch stop) throws InterruptedException {
        ServeOptions options;
        ReplayProxy proxy;
        try {
            options = ServeOptions.parse(args);
            HarnessConfig config = ConfigLoader.load(options.config());
            // Cassettes written here are stripped of volatile fields and redacted, failing closed.
            proxy = forOptions(config, options, env, RecordingRedaction.forConfig(config));
            proxy.start();
        } catch (IllegalArgumentException | ConfigException | MissingApiKey | IOException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        Thread hook = new Thread(() -> {
            proxy.close();
            stop.countDown();
        }, "resilience-proxy-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("Serving " + options.mode().userName() + " on " + proxy.baseUrl()
                + (options.scenario() == null ? "" : " with the faults of scenario '" + options.scenario() + "'")
                + "; point an OpenAI client's base URL here. Stop with Ctrl-C");
        out.flush();
        try {
            stop.await();
        } finally {
            proxy.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Already shutting down: the hook is running.
            }
        }
        return 0;
    }
}
