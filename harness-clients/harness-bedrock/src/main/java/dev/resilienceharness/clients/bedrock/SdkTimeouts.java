package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.http.AttemptTimeout;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;

/**
 * The timeouts an attempt of a Bedrock Runtime client runs under, and what it throws when one runs out, as the SDK
 * would on the network: the HTTP client's socket read timeout (30 s by default,
 * {@code SdkHttpConfigurationOption.GLOBAL_HTTP_DEFAULTS} in {@code http-client-spi} 2.59.1), a
 * {@link java.net.SocketTimeoutException} the SDK retries as an I/O error; the client's {@code apiCallAttemptTimeout},
 * an {@link ApiCallAttemptTimeoutException}, which its retry strategy retries ({@code SdkDefaultRetrySetting
 * .RETRYABLE_EXCEPTIONS} in {@code sdk-core} 2.59.1); and its {@code apiCallTimeout}, an
 * {@link ApiCallTimeoutException}, which ends the call. The shortest runs out first, on the run's virtual clock.
 *
 * <p>{@code apiCallTimeout} bounds the whole call, the SDK's retries and its backoff between them included: an attempt
 * made {@code elapsed} into its call runs under what is left of it ({@link #into}), and a call whose time ran out
 * during the backoff makes no further attempt ({@link #spent}), as the SDK's own call timer would end it.
 *
 * @param socketRead  the HTTP client's read timeout
 * @param attempt     {@code apiCallAttemptTimeout}, or {@code null}
 * @param call        {@code apiCallTimeout}, or {@code null}
 * @param callLeft    what is left of {@code call} when this attempt starts ({@code call} for the first)
 */
record SdkTimeouts(Duration socketRead, Duration attempt, Duration call, Duration callLeft) {

    SdkTimeouts(Duration socketRead, Duration attempt, Duration call) {
        this(socketRead, attempt, call, call);
    }

    /** These timeouts for an attempt that starts {@code elapsed} into its call. */
    SdkTimeouts into(Duration elapsed) {
        return call == null ? this : new SdkTimeouts(socketRead, attempt, call, call.minus(elapsed));
    }

    /** Whether the call's {@code apiCallTimeout} ran out before this attempt could start. */
    boolean spent() {
        return callLeft != null && (callLeft.isZero() || callLeft.isNegative());
    }

    /** The SDK's exception for a call whose {@code apiCallTimeout} ran out. */
    ApiCallTimeoutException callTimedOut() {
        return ApiCallTimeoutException.create(call.toMillis());
    }

    /** The default HTTP client's socket read timeout. */
    static final Duration SOCKET_READ = Duration.ofSeconds(30);

    /** A client's timeouts as its override configuration sets them. */
    static SdkTimeouts of(ClientOverrideConfiguration o) {
        return new SdkTimeouts(SOCKET_READ, o.apiCallAttemptTimeout().orElse(null), o.apiCallTimeout().orElse(null));
    }

    /** How long an attempt waits for its answer: the shortest of the three. */
    Duration forAttempt() {
        return AttemptTimeout.of(AttemptTimeout.of(socketRead, attempt), callLeft);
    }

    /**
     * What the SDK sees when the attempt's timeout runs out after {@code after}: a {@link SocketTimeoutException} when
     * the socket's ran out first, else the SDK's own timeout exception, thrown.
     */
    IOException timedOut(Duration after) {
        Throwable failure = failure(after);
        if (failure instanceof IOException io) {
            return io;
        }
        throw (RuntimeException) failure;
    }

    /**
     * What the SDK sees when the attempt's timeout runs out after {@code after}, not thrown: a
     * {@link SocketTimeoutException} when the socket's ran out first, else the SDK's own timeout exception, which the
     * async client fails the attempt with as the SDK's own attempt timer would.
     */
    Throwable failure(Duration after) {
        Duration limit = forAttempt();
        if (limit == null || limit.equals(socketRead)) {
            return new SocketTimeoutException(AdapterMessages.timedOut(after));
        }
        if (limit.equals(attempt)) {
            return ApiCallAttemptTimeoutException.create(limit.toMillis());
        }
        return callTimedOut();
    }

    /** Whether the attempt's timeout is the client's own ({@code apiCallAttemptTimeout} or {@code apiCallTimeout}). */
    boolean sdksOwn() {
        Duration limit = forAttempt();
        return limit != null && !limit.equals(socketRead);
    }

    /**
     * {@code e}, a failed read of the answer's body, as the SDK sees it: a read past the client's own timeout is that
     * timeout's exception; anything else, the socket's timeout included, stays what it is.
     */
    Throwable onRead(IOException e) {
        return e instanceof SocketTimeoutException && sdksOwn() ? failure(forAttempt()) : e;
    }

    /**
     * {@code body} read whole, as the first byte of a non-streaming answer is its status line: a first read past the
     * attempt's timeout is what {@link #timedOut} says, thrown from the HTTP client's call as the network's would be.
     */
    InputStream read(InputStream body) throws IOException {
        try (body) {
            return new ByteArrayInputStream(body.readAllBytes());
        } catch (SocketTimeoutException e) {
            throw timedOut(forAttempt());
        }
    }
}
