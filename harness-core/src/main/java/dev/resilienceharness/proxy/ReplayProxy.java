package dev.resilienceharness.proxy;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.BedrockChunks;
import dev.resilienceharness.http.FaultAnswer;
import dev.resilienceharness.http.FaultAsHttp;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.limits.Refusal;
import dev.resilienceharness.limits.Tokens;
import dev.resilienceharness.live.LiveMessages;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.MissingApiKey;
import dev.resilienceharness.live.ProviderCall;
import dev.resilienceharness.live.Recorder;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.transport.QuotaExhausted;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Serves a loopback provider endpoint for loops written with any client or language: {@code POST
 * /v1/chat/completions}, {@code /v1/responses} and {@code /v1/messages} (each also without {@code /v1}). In replay
 * mode it answers from the cassettes by the request's fingerprint ({@link CassetteAnswers}) and applies a
 * scenario's fault plan as real HTTP, one entry per request ({@link FaultAsHttp}); in the record modes it forwards
 * to the provider and writes cassettes, redacted ({@link ProxyRecording}). A {@code "stream": true} request is
 * answered as server-sent events. Delays are multiplied by the time factor.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ReplayProxy implements AutoCloseable {

    /** The virtual clock's epoch (2026-01-01T00:00:00Z): the {@code created} of a replayed answer that has none. */
    static final long REPLAY_CREATED = CassetteAnswers.REPLAY_CREATED;
    /** How long a {@code timeout} fault keeps the client waiting before the 504, before the time factor. */
    public static final Duration DEFAULT_TIMEOUT_DELAY = FaultAsHttp.DEFAULT_TIMEOUT;
    /** How long a client may take to send its whole request before the proxy closes the connection. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
    /** The request header in which the Stainless SDKs (openai-java, anthropic-java, ...) send their timeout. */
    static final String CLIENT_TIMEOUT = "X-Stainless-Timeout";
    /** How much longer than the client's own timeout a {@code timeout} fault holds it. */
    static final Duration CLIENT_TIMEOUT_MARGIN = Duration.ofMillis(200);
    /** The longest a {@code timeout} fault holds a client, whatever timeout it states. */
    static final Duration MAX_CLIENT_TIMEOUT = Duration.ofMinutes(10);
    static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    private final HarnessConfig config;
    private final CassetteStore store;
    private final ProxyRuns runs;
    private final Map<String, String> opsByFingerprint = new HashMap<>();
    /** The declared ops with two tools or more, by their requests' tool-order-free fingerprints. */
    private final Map<String, String> opsByToolOrderFingerprint = new HashMap<>();
    private final Consumer<String> log;
    private final Path reportDir;
    private final ProxyAdmin admin;
    private final CassetteAnswers replay;
    private final ProxyRecording recording;
    private final double timeFactor;
    private final Duration timeoutDelay;
    private final Duration readTimeout;
    private final Duration mcpClientTimeout;
    private final int requestedPort;
    private final AtomicInteger requests = new AtomicInteger();
    private HttpServer server;
    private final AnswerDelays delays;
    private ProxyThreads threads;
    /** The MCP endpoints, {@code /mcp/<server>}. */
    private McpRoute mcp;

    private ReplayProxy(Builder b) {
        this.store = new CassetteStore(b.config.cassettes(), VolatilePaths.of(b.config.volatilePaths()), b.mode,
                b.redaction);
        this.config = b.config;
        this.runs = new ProxyRuns(b.config, b.scenario);
        this.admin = new ProxyAdmin(b.config, runs, b.mode);
        for (String op : Recorder.ops(b.config)) {
            ObjectNode declared = b.config.sharedRequest(op);
            opsByFingerprint.putIfAbsent(store.fingerprint(declared), op);
            String anyOrder = store.toolOrderFingerprint(declared);
            if (anyOrder != null) {
                opsByToolOrderFingerprint.putIfAbsent(anyOrder, op);
            }
        }
        this.log = b.log;
        this.reportDir = b.reportDir;
        this.replay = new CassetteAnswers(store);
        this.recording = b.upstream == null ? null : new ProxyRecording(store, b.upstream);
        this.timeFactor = b.timeFactor;
        this.timeoutDelay = b.timeoutDelay;
        this.readTimeout = b.readTimeout;
        this.mcpClientTimeout = b.mcpClientTimeout;
        this.delays = b.delays;
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
        return forOptions(config, options, env, redaction, line -> { });
    }

    /** {@link #forOptions(HarnessConfig, ServeOptions, Function, UnaryOperator)}, logging each request to {@code log}. */
    public static ReplayProxy forOptions(HarnessConfig config, ServeOptions options, Function<String, String> env,
            UnaryOperator<ObjectNode> redaction, Consumer<String> log) throws MissingApiKey {
        Builder b = builder(config).mode(options.mode()).port(options.port()).timeFactor(options.timeFactor())
                .mcpClientTimeout(options.mcpClientTimeout()).redaction(redaction).log(log).reportTo(options.reportDir());
        if (options.mode() != Mode.REPLAY) {
            if (config.provider() == null) {
                throw new IllegalArgumentException(LiveMessages.noProvider(String.valueOf(
                        config.file().getFileName())));
            }
            try {
                b.upstream(LiveTransport.connect(config.provider(), env));
            } catch (MissingApiKey e) {
                throw e.in(config.file());
            }
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
        private Duration readTimeout = DEFAULT_READ_TIMEOUT;
        private Duration mcpClientTimeout = ServeOptions.DEFAULT_MCP_CLIENT_TIMEOUT;
        private Consumer<String> log = line -> { };
        private Path reportDir;
        private AnswerDelays delays;

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
            Scenario s = ProxyRuns.find(config, name);
            if (s == null) {
                throw new IllegalArgumentException(ProxyMessages.noScenario(name, config));
            }
            return scenario(s);
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

        /** How long a client may take to send its request line, headers and body before the connection is closed. */
        public Builder readTimeout(Duration d) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("the read timeout must be positive, was " + d);
            }
            this.readTimeout = d;
            return this;
        }

        /**
         * The request timeout of the MCP clients served, {@link ServeOptions#DEFAULT_MCP_CLIENT_TIMEOUT} by default:
         * an MCP {@code timeout} or {@code hang} runs it out on the run's clock, and the request is held open that
         * long, times the time factor.
         */
        public Builder mcpClientTimeout(Duration d) {
            Objects.requireNonNull(d, "mcpClientTimeout");
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(ServeOptions.mcpClientTimeoutError(ServeOptions.shown(d)));
            }
            this.mcpClientTimeout = d;
            return this;
        }

        /** Where the line logged for each request goes; nowhere by default. */
        public Builder log(Consumer<String> sink) {
            this.log = Objects.requireNonNull(sink, "log");
            return this;
        }

        /** Where delayed answers wait until their delay is over; real timers unless a test passes its own. */
        Builder delays(AnswerDelays d) {
            this.delays = Objects.requireNonNull(d, "delays");
            return this;
        }

        /** Where {@code report.json} (with report.html and the JUnit XML) is written when the proxy stops. */
        public Builder reportTo(Path outputDirectory) {
            this.reportDir = outputDirectory;
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
        threads = new ProxyThreads(readTimeout, delays);
        s.setExecutor(threads);
        s.createContext("/", this::handle);
        mcp = new McpRoute(runs::current, threads, timeFactor, mcpClientTimeout, log);
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

    /**
     * Stops listening and, when a report folder was given and any request arrived, writes the report of every run
     * served, each checked for call budget and waiting.
     *
     * @return the runs, checked; empty when no request arrived
     */
    public synchronized List<ScenarioResult> stop() throws IOException {
        if (server != null) {
            server.stop(0);
            threads.close();
            server = null;
        }
        List<ScenarioResult> served = runs.stop(reportDir);
        if (!served.isEmpty() && reportDir != null) {
            log.accept(ProxyMessages.reportWritten(served.size(), reportDir.resolve(ReportWriter.JSON)));
        }
        return served;
    }

    @Override
    public synchronized void close() {
        try {
            stop();
        } catch (IOException e) {
            log.accept(ProxyMessages.reportNotWritten(reportDir, e));
        }
    }

    // --- handling ---------------------------------------------------------------------------------------------

    /** One request as the log line tells it: what came in, what it was taken for, which fault met it. */
    private static final class Served {
        final String method;
        final String path;
        final long arrived = System.nanoTime();
        String label = "-";
        String fault = "-";
        dev.resilienceharness.http.StreamReplay stream;

        Served(HttpExchange ex) {
            this.method = ex.getRequestMethod();
            this.path = ex.getRequestURI().getPath();
        }
    }

    private void handle(HttpExchange ex) {
        Served served = new Served(ex);
        try {
            if (served.path.startsWith(ProxyAdmin.PREFIX)) {
                threads.requestRead();
                ProxyAdmin.Answered admin = this.admin.answer(served.method, served.path,
                        ex.getRequestURI().getRawQuery());
                served.label = admin.label();
                deliver(ex, null, admin.answer(), served);
                return;
            }
            if (McpRoute.routes(served.path)) {
                byte[] body;
                try {
                    body = readBody(ex.getRequestBody());
                } catch (TooLarge e) {
                    threads.requestRead();
                    deliver(ex, null, FaultAnswer.error(413, Map.of("Connection", "close"),
                            ApiShape.CHAT_COMPLETIONS.errorBody(413, "request_too_large", ProxyMessages.TOO_LARGE,
                                    null)), served);
                    return;
                }
                threads.requestRead();
                mcp.answer(ex, body);
                return;
            }
            ApiShape shape = ApiShape.forPath(served.path);
            if (shape == null) {
                threads.requestRead();
                deliver(ex, null, FaultAnswer.error(404, Map.of(), ApiShape.CHAT_COMPLETIONS.errorBody(404,
                        "not_found", "this proxy answers " + ApiShape.paths() + ", not " + served.path, null)), served);
                return;
            }
            if (!"POST".equals(served.method)) {
                threads.requestRead();
                deliver(ex, null, FaultAnswer.error(405, Map.of("Allow", "POST"), shape.errorBody(405,
                        "invalid_request_error", "use POST for " + served.path, null)), served);
                return;
            }
            requests.incrementAndGet();
            byte[] bytes;
            try {
                bytes = readBody(ex.getRequestBody());
            } catch (TooLarge e) {
                threads.requestRead();
                deliver(ex, null, FaultAnswer.error(413, Map.of("Connection", "close"), shape.errorBody(413,
                        "request_too_large", ProxyMessages.TOO_LARGE, null)), served);
                return;
            }
            threads.requestRead();
            JsonNode parsed;
            try {
                parsed = Json.readTree(bytes);
            } catch (JacksonException e) {
                deliver(ex, null, FaultAnswer.error(400, Map.of(), shape.errorBody(400, "invalid_request_error",
                        ProxyMessages.notJson(e), null)), served);
                return;
            }
            if (!(parsed instanceof ObjectNode sent)) {
                deliver(ex, null, FaultAnswer.error(400, Map.of(), shape.errorBody(400, "invalid_request_error",
                        "the request body is not a JSON object", null)), served);
                return;
            }
            ObjectNode request = ApiShape.request(served.path, sent); // Gemini's model and streaming are in its path
            String fingerprint = store.fingerprint(request);
            String op = opsByFingerprint.get(fingerprint);
            if (op == null && !opsByToolOrderFingerprint.isEmpty()) {
                // A declared request whose tools came in another order is still that op's.
                String anyOrder = store.toolOrderFingerprint(request);
                op = anyOrder == null ? null : opsByToolOrderFingerprint.get(anyOrder);
            }
            served.label = op != null ? "op " + op : "fingerprint " + fingerprint;
            FaultAnswer answer;
            if (store.mode() == Mode.REPLAY) {
                ProxyRun run = runs.current();
                ProxyRun.Planned planned = run.nextPlanned();
                Fault fault = planned.fault();
                served.fault = fault.kind();
                Duration clientTimeout = clientTimeout(ex.getRequestHeaders().getFirst(CLIENT_TIMEOUT));
                answer = replay.answer(fault, shape, request, clientTimeout != null ? clientTimeout : timeoutDelay,
                        planned.call());
                String miss = FaultAsHttp.needsRecordedAnswer(fault) && answer.status() >= 400
                        ? answer.body().at("/error/message").asString() : null;
                if (answer.outcome() != FaultAnswer.Outcome.TIMEOUT || clientTimeout == null) {
                    answer = answer.scaled(timeFactor); // the client's own timeout runs on its clock, unscaled
                }
                String name = op != null ? op : fingerprint;
                if (miss == null && FaultAsHttp.needsRecordedAnswer(fault) && answer.status() == 200) {
                    // The fault plan first, then the scenario's provider_limits, on the real clock.
                    Tokens tokens = Tokens.of(request, answer.body());
                    Refusal refusal = run.limit(served.arrived, timeFactor, tokens, answer.delay());
                    if (refusal != null) {
                        served.fault = refusal.kind() == QuotaExhausted.Kind.INSUFFICIENT_QUOTA ? "insufficient_quota"
                                : "rate_limit";
                        run.refused(name, fault, refusal, served.arrived);
                        deliver(ex, request, FaultAnswer.error(429, refusal.headers(), shape.errorBody(429,
                                refusal.code(), refusal.message(), null)), served);
                        return;
                    }
                    Map<String, String> withLimits = new java.util.LinkedHashMap<>(answer.headers());
                    withLimits.putAll(run.limitHeaders(served.arrived, timeFactor));
                    answer = new FaultAnswer(answer.outcome(), answer.status(), withLimits, answer.body(),
                            answer.delay());
                    if (ApiShape.streams(request)) {
                        served.stream = chunked(served, fault, replay.stream(fault, shape, request)); // event by event
                    }
                    run.call(name, fault, answer, null, served.arrived);
                    run.spent(tokens);
                } else {
                    if (answer.status() == 200 && ApiShape.streams(request)) {
                        served.stream = chunked(served, fault, replay.stream(fault, shape, request));
                    }
                    run.call(name, fault, answer, miss, served.arrived);
                }
            } else {
                served.fault = store.mode().userName();
                answer = recording.record(shape, request);
            }
            deliver(ex, request, answer, served);
        } catch (IOException | RuntimeException e) {
            ex.close(); // the client went away or stalled past the read timeout
        }
    }

    /**
     * Writes {@code answer} to the client: after its delay, as server-sent events when the request streams. A delay
     * holds no thread; the exchange is closed, and the request logged, when the answer is out.
     */
    private void deliver(HttpExchange ex, ObjectNode request, FaultAnswer answer, Served served) throws IOException {
        switch (answer.outcome()) {
            case CRASH -> {
                ex.getRequestBody().close();
                ex.close(); // closing before any header is sent drops the connection
                logged(served, "closed");
            }
            case TIMEOUT -> threads.later(answer.delay(), () -> finish(ex, () -> send(ex, answer), served, "504"));
            case ANSWER -> {
                String status = String.valueOf(answer.status());
                if (answer.status() == 200 && served.stream != null) {
                    streamEvents(ex, served.stream, served);
                } else if (answer.status() == 200 && ApiShape.streams(request)) {
                    ex.getResponseHeaders().set("Content-Type", dev.resilienceharness.http.StreamReplay.contentType(
                            ApiShape.forPath(served.path)));
                    chunkHeaders(ex, served);
                    ex.getResponseHeaders().set("Cache-Control", "no-cache");
                    ex.sendResponseHeaders(200, 0);
                    // The headers are out; the first token is late.
                    threads.later(answer.delay(), () -> finish(ex, () -> stream(ex, served.path, request, answer),
                            served, status));
                } else if (answer.delay().isZero()) {
                    finish(ex, () -> send(ex, answer), served, status);
                } else {
                    threads.later(answer.delay(), () -> finish(ex, () -> send(ex, answer), served, status));
                }
            }
        }
    }

    /**
     * Sends a replayed stream's events one by one, each at its offset since the request (times the time factor),
     * holding no thread between them. A cut stream promises one byte more than it sends and closes: the client's
     * read fails as on a dropped connection.
     */
    private void streamEvents(HttpExchange ex, dev.resilienceharness.http.StreamReplay stream, Served served)
            throws IOException {
        ApiShape shape = ApiShape.forPath(served.path);
        ex.getResponseHeaders().set("Content-Type", dev.resilienceharness.http.StreamReplay.contentType(shape));
        chunkHeaders(ex, served);
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        boolean cut = stream.ending() == dev.resilienceharness.http.StreamReplay.Ending.CUT;
        byte[] wire = BedrockChunks.streams(served.path) ? BedrockChunks.frames(stream.events()) : stream.wire(shape);
        ex.sendResponseHeaders(200, cut ? wire.length + 1L : 0);
        nextEvent(ex, stream, 0, 0, served);
    }

    private void nextEvent(HttpExchange ex, dev.resilienceharness.http.StreamReplay stream, int i, long sentAtMs,
            Served served) {
        if (i == stream.events().size()) {
            boolean cut = stream.ending() == dev.resilienceharness.http.StreamReplay.Ending.CUT;
            // A cut stream's body is short of what it promised: closing the exchange then drops the connection.
            ex.close();
            logged(served, cut ? "200, cut after " + i + (i == 1 ? " event" : " events") : "200");
            return;
        }
        dev.resilienceharness.cassette.StreamEvent event = stream.events().get(i);
        Duration gap = Duration.ofNanos(Math.round(Math.max(0, event.atMs() - sentAtMs) * 1_000_000.0 * timeFactor));
        threads.later(gap, () -> {
            try {
                OutputStream out = ex.getResponseBody();
                out.write(BedrockChunks.streams(served.path) ? BedrockChunks.frame(event)
                        : dev.resilienceharness.http.StreamReplay.wire(ApiShape.forPath(served.path), event));
                out.flush();
            } catch (IOException e) {
                ex.close();
                logged(served, "200 (the client left before the answer was out)");
                return;
            }
            nextEvent(ex, stream, i + 1, event.atMs(), served);
        });
    }

    /** A stream {@code served} on Bedrock's invoke-with-response-stream: its chunk frames ({@link BedrockChunks}). */
    private static dev.resilienceharness.http.StreamReplay chunked(Served served, Fault fault,
            dev.resilienceharness.http.StreamReplay stream) {
        return stream != null && BedrockChunks.streams(served.path) ? BedrockChunks.replay(stream, fault) : stream;
    }

    /** The payload content type anthropic-java's Bedrock backend requires of a stream of Bedrock's chunks. */
    private static void chunkHeaders(HttpExchange ex, Served served) {
        if (BedrockChunks.streams(served.path)) {
            BedrockChunks.headers().forEach(ex.getResponseHeaders()::set);
        }
    }

    private void logged(Served served, String status) {
        log.accept(ProxyMessages.requestLine(served.method, served.path, served.label, served.fault, status,
                (System.nanoTime() - served.arrived) / 1_000_000));
    }

    /** The part of an answer that writes to the client. */
    @FunctionalInterface
    private interface Write {
        void run() throws IOException;
    }

    private void finish(HttpExchange ex, Write write, Served served, String status) {
        try (ex) {
            write.run();
            logged(served, status);
        } catch (IOException e) {
            logged(served, status + " (the client left before the answer was out)");
        }
    }

    /** Sends an answer (one just recorded) as the stream its API would have sent for it on {@code path}. */
    private static void stream(HttpExchange ex, String path, ObjectNode request, FaultAnswer answer)
            throws IOException {
        ApiShape shape = ApiShape.forPath(path);
        OutputStream out = ex.getResponseBody();
        for (dev.resilienceharness.cassette.StreamEvent event
                : dev.resilienceharness.http.StreamReplay.synthesized(shape, answer.body(), request, 0)) {
            out.write(BedrockChunks.streams(path) ? BedrockChunks.frame(event)
                    : dev.resilienceharness.http.StreamReplay.wire(shape, event));
            out.flush();
        }
        out.close();
    }

    private static void send(HttpExchange ex, FaultAnswer answer) throws IOException {
        byte[] bytes = Json.compact(answer.body()).getBytes(StandardCharsets.UTF_8);
        answer.headers().forEach(ex.getResponseHeaders()::set);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(answer.status(), bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * How long a {@code timeout} fault holds a client that states its own timeout in seconds: a little longer,
     * so that the client's own timeout fires as it would against a provider that never answers; {@code null}
     * when the header is absent or not a positive number.
     */
    static Duration clientTimeout(String header) {
        if (header == null) {
            return null;
        }
        try {
            double seconds = Double.parseDouble(header.strip());
            if (!(seconds > 0) || seconds > MAX_CLIENT_TIMEOUT.toSeconds()) {
                return seconds > 0 ? MAX_CLIENT_TIMEOUT : null;
            }
            return Duration.ofNanos(Math.round(seconds * 1e9)).plus(CLIENT_TIMEOUT_MARGIN);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A request body over {@link #MAX_REQUEST_BYTES}. */
    private static final class TooLarge extends IOException {
        TooLarge() {
            super(ProxyMessages.TOO_LARGE);
        }
    }

    private static byte[] readBody(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) > 0) {
            if (out.size() + n > MAX_REQUEST_BYTES) {
                throw new TooLarge();
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    // --- command line -----------------------------------------------------------------------------------------

    /**
     * Serves until the process is killed: {@code --config resilience.yaml --mode replay|record|record-missing
     * --port 8089 --scenario NAME --time-factor 1.0 --report-dir DIR}. The key, when recording, comes from the
     * environment; see {@link ProxyCommand}.
     */
    public static void main(String[] args) throws InterruptedException {
        int status = ProxyCommand.run(args, System::getenv, System.out, System.err, new CountDownLatch(1));
        if (status != 0) {
            System.exit(status);
        }
    }
}
