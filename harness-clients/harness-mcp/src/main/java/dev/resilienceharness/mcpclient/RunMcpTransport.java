package dev.resilienceharness.mcpclient;

import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpOutcome;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportException;
import io.modelcontextprotocol.spec.McpTransportSessionClosedException;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * The SDK's transport seam over a run's {@link McpEndpoint}: each message the client sends is one
 * {@link McpEndpoint#send}, and each outcome reaches the client as the SDK's Streamable HTTP transport hands it over
 * (the answer's messages to the session's handler; a failure first to the exception handler the client registered,
 * then as the error of the send), at once and on the caller's thread: the run's virtual clock has already moved.
 */
final class RunMcpTransport implements McpClientTransport {

    private final McpEndpoint endpoint;
    private final Duration requestTimeout;
    private final McpJsonMapper json = McpJsonDefaults.getMapper();
    private final AtomicReference<Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>>> handler =
            new AtomicReference<>();
    private final AtomicReference<Consumer<Throwable>> exceptionHandler = new AtomicReference<>();
    /** The session the client is in, as Streamable HTTP's {@code Mcp-Session-Id}; null before an initialize. */
    private final AtomicReference<String> session = new AtomicReference<>();
    private final AtomicInteger sessions = new AtomicInteger();
    private volatile boolean closed;

    RunMcpTransport(McpEndpoint endpoint, Duration requestTimeout) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException(McpClientMessages.nonPositiveTimeout(requestTimeout));
        }
    }

    /** The request timeout handed to the endpoint with every message: the client's own. */
    Duration requestTimeout() {
        return requestTimeout;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        // Each initialization of the client connects a new session to the same transport; the latest one listens.
        return Mono.fromRunnable(() -> this.handler.set(Objects.requireNonNull(handler, "handler")));
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        exceptionHandler.set(handler);
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.create(sink -> send(message, sink));
    }

    private void send(McpSchema.JSONRPCMessage message, MonoSink<Void> sink) {
        if (closed) {
            sink.error(new McpTransportSessionClosedException());
            return;
        }
        if (message instanceof McpSchema.JSONRPCRequest request
                && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
            session.set(endpoint.server() + "-" + sessions.incrementAndGet());
        }
        McpOutcome outcome = endpoint.send(text(message), requestTimeout);
        if (outcome instanceof McpOutcome.Reply reply) {
            // Read before the send succeeds: a failure after it would be dropped, and the client would wait in vain.
            List<McpSchema.JSONRPCMessage> messages = parse(reply.messages());
            sink.success();
            deliver(messages);
        } else if (outcome instanceof McpOutcome.NoReply noReply) {
            deliver(parse(noReply.messages()));
            fail(McpClientFailures.timeout(noReply.waited()), sink);
        } else if (outcome instanceof McpOutcome.SessionNotFound) {
            String id = session.getAndSet(null);
            fail(id == null ? new McpTransportException(McpClientFailures.serverNotFound())
                    : new McpTransportSessionNotFoundException(id), sink);
        } else if (outcome instanceof McpOutcome.ServerGone gone) {
            fail(new IOException(gone.detail()), sink);
        } else if (outcome instanceof McpOutcome.Throttled) {
            fail(new McpTransportException(McpClientFailures.throttled()), sink);
        } else {
            throw new IllegalStateException(McpClientMessages.unknownOutcome(outcome));
        }
    }

    /** As the SDK's own transports do: the client's exception handler hears of the failure before the sender. */
    private void fail(Throwable failure, MonoSink<Void> sink) {
        Consumer<Throwable> onFailure = exceptionHandler.get();
        if (onFailure != null) {
            onFailure.accept(failure);
        }
        sink.error(failure);
    }

    private void deliver(List<McpSchema.JSONRPCMessage> messages) {
        var listener = handler.get();
        for (McpSchema.JSONRPCMessage m : messages) {
            listener.apply(Mono.just(m)).subscribe();
        }
    }

    private List<McpSchema.JSONRPCMessage> parse(List<String> messages) {
        if (!messages.isEmpty() && handler.get() == null) {
            throw new IllegalStateException(McpClientMessages.SENT_BEFORE_CONNECT);
        }
        List<McpSchema.JSONRPCMessage> parsed = new ArrayList<>(messages.size());
        for (String m : messages) {
            parsed.add(parse(m));
        }
        return parsed;
    }

    private String text(McpSchema.JSONRPCMessage message) {
        try {
            return json.writeValueAsString(message);
        } catch (IOException e) {
            throw new UncheckedIOException(McpClientMessages.NOT_WRITABLE, e);
        }
    }

    private McpSchema.JSONRPCMessage parse(String message) {
        try {
            return McpSchema.deserializeJsonRpcMessage(json, message);
        } catch (IOException e) {
            throw new UncheckedIOException(McpClientMessages.NOT_JSON_RPC, e);
        }
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> closed = true);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return json.convertValue(data, type);
    }
}
