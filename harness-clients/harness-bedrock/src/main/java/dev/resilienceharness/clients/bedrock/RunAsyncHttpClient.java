package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.http.SdkHttpConfigurationOption;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.async.AsyncExecuteRequest;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.async.SdkAsyncHttpResponseHandler;

/**
 * The AWS SDK's {@link SdkAsyncHttpClient}, where Netty would be: it reads the request body from the SDK's publisher,
 * answers the attempt from the scenario run ({@link HttpEndpoint#exchange}), hands the status and headers to
 * {@code onHeaders} and the body to {@code onStream} as a {@link Publisher} of the bytes the run delivers on its virtual
 * clock: a ConverseStream's event-stream frames one by one. A cut stream, or a stall past the read timeout, is an error
 * on that publisher, as a dropped connection is on Netty's; the SDK's retry stage sits above it, so every attempt, the
 * SDK's own retries included, is one call in the run's trace.
 *
 * <p>The client's {@code apiCallAttemptTimeout} and {@code apiCallTimeout} run out on the virtual clock, as on the
 * synchronous client ({@link SdkTimeouts}): a first byte later than the shorter of them fails the attempt with the
 * SDK's {@code ApiCallAttemptTimeoutException} or {@code ApiCallTimeoutException} before any header, as the SDK's own
 * timer would, and a read between events that waits past it fails the body with the same exception.
 */
final class RunAsyncHttpClient implements SdkAsyncHttpClient {

    /** The SDK's default read timeout for its HTTP clients (Netty's included): 30 seconds, on the virtual clock. */
    static final Duration READ_TIMEOUT = SdkHttpConfigurationOption.GLOBAL_HTTP_DEFAULTS.get(
            SdkHttpConfigurationOption.READ_TIMEOUT);

    private static final int CHUNK = 8192;

    private final HttpEndpoint http;
    private final SdkTimeouts timeouts;
    private final CallStarts calls;

    RunAsyncHttpClient(HttpEndpoint http) {
        this(http, new SdkTimeouts(READ_TIMEOUT, null, null));
    }

    RunAsyncHttpClient(HttpEndpoint http, SdkTimeouts timeouts) {
        this.http = Objects.requireNonNull(http, "http");
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.calls = new CallStarts(http.clock());
    }

    @Override
    public CompletableFuture<Void> execute(AsyncExecuteRequest request) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        SdkAsyncHttpResponseHandler handler = request.responseHandler();
        collect(request.requestContentPublisher()).whenComplete((body, failed) -> {
            try {
                if (failed != null) {
                    throw failed;
                }
                answer(request.request(), body, handler, done);
            } catch (Throwable t) {
                // A miss, the run's crash signal, a body the SDK could not publish: the attempt fails with it.
                handler.onError(t);
                done.completeExceptionally(t);
            }
        });
        return done;
    }

    private void answer(SdkHttpRequest sent, byte[] body, SdkAsyncHttpResponseHandler handler,
            CompletableFuture<Void> done) {
        SdkTimeouts timeouts = this.timeouts.into(calls.elapsed(sent.headers()));
        if (timeouts.spent()) {
            fail(timeouts.callTimedOut(), handler, done); // the call's time ran out in the SDK's backoff
            return;
        }
        Duration timeout = timeouts.forAttempt();
        HttpAttempt attempt = new HttpAttempt(BedrockSdk.LABEL, sent.method().name(), sent.encodedPath(),
                sent.headers(), body, timeout, RunHttpClient.retry(sent.headers()));
        HttpAnswer answer = http.exchange(attempt);
        if (answer instanceof HttpAnswer.TimedOut timedOut) {
            fail(timeouts.failure(timedOut.after()), handler, done);
            return;
        }
        HttpAnswer.Response r = (HttpAnswer.Response) answer;
        InputStream in = http.body(r, timeout);
        if (timeouts.sdksOwn()) {
            // The SDK's own attempt timer fails the attempt whether or not anything arrived; a first byte past it
            // never brings a status line, so the attempt fails before onHeaders, as it does when that timer fires.
            PushbackInputStream first = new PushbackInputStream(in, 1);
            try {
                int b = first.read();
                if (b >= 0) {
                    first.unread(b);
                }
            } catch (IOException e) {
                fail(timeouts.onRead(e), handler, done);
                return;
            }
            in = first;
        }
        Map<String, List<String>> headers = new LinkedHashMap<>(r.headers());
        handler.onHeaders(SdkHttpResponse.builder().statusCode(r.status())
                .statusText(r.status() == 200 ? "OK" : "HTTP " + r.status()).headers(headers).build());
        handler.onStream(new BodyPublisher(in, timeouts, done));
    }

    private static void fail(Throwable e, SdkAsyncHttpResponseHandler handler, CompletableFuture<Void> done) {
        handler.onError(e);
        done.completeExceptionally(e);
    }

    /** The request body, read whole from the SDK's publisher. */
    private static CompletableFuture<byte[]> collect(Publisher<ByteBuffer> publisher) {
        CompletableFuture<byte[]> out = new CompletableFuture<>();
        if (publisher == null) {
            out.complete(new byte[0]);
            return out;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        publisher.subscribe(new Subscriber<>() {
            @Override
            public void onSubscribe(Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer b) {
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                synchronized (bytes) {
                    bytes.writeBytes(chunk);
                }
            }

            @Override
            public void onError(Throwable t) {
                out.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                synchronized (bytes) {
                    out.complete(bytes.toByteArray());
                }
            }
        });
        return out;
    }

    /**
     * The response body as the SDK subscribes to it: each request for more reads on from the run's body, which waits
     * for the next event on the virtual clock; a failed read is {@code onError}, the end {@code onComplete}. One
     * subscriber; signals are never concurrent (one drain loop at a time).
     */
    static final class BodyPublisher implements Publisher<ByteBuffer> {

        private final InputStream in;
        private final SdkTimeouts timeouts;
        private final CompletableFuture<Void> done;
        private final AtomicBoolean subscribed = new AtomicBoolean();

        BodyPublisher(InputStream in, CompletableFuture<Void> done) {
            this(in, new SdkTimeouts(READ_TIMEOUT, null, null), done);
        }

        BodyPublisher(InputStream in, SdkTimeouts timeouts, CompletableFuture<Void> done) {
            this.in = in;
            this.timeouts = timeouts;
            this.done = done;
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            if (!subscribed.compareAndSet(false, true)) {
                subscriber.onSubscribe(new Subscription() {
                    @Override
                    public void request(long n) {
                    }

                    @Override
                    public void cancel() {
                    }
                });
                subscriber.onError(new IllegalStateException("the body can be read once"));
                return;
            }
            subscriber.onSubscribe(new Reading(subscriber));
        }

        private final class Reading implements Subscription {
            private final Subscriber<? super ByteBuffer> subscriber;
            private final AtomicLong demand = new AtomicLong();
            private final AtomicInteger wip = new AtomicInteger();
            private volatile boolean over;

            Reading(Subscriber<? super ByteBuffer> subscriber) {
                this.subscriber = subscriber;
            }

            @Override
            public void request(long n) {
                if (n <= 0) {
                    end(new IllegalArgumentException("a subscriber requests at least one item (rule 3.9), not " + n));
                    return;
                }
                demand.getAndUpdate(d -> d + n < 0 ? Long.MAX_VALUE : d + n);
                drain();
            }

            @Override
            public void cancel() {
                over = true;
                close();
                done.complete(null);
            }

            private void drain() {
                if (wip.getAndIncrement() != 0) {
                    return; // the loop already running picks the new demand up
                }
                do {
                    while (!over && demand.get() > 0) {
                        byte[] buffer = new byte[CHUNK];
                        int n;
                        try {
                            n = in.read(buffer);
                        } catch (IOException e) {
                            end(timeouts.onRead(e));
                            return;
                        }
                        if (n < 0) {
                            over = true;
                            close();
                            subscriber.onComplete();
                            done.complete(null);
                            return;
                        }
                        if (n > 0) {
                            demand.decrementAndGet();
                            subscriber.onNext(ByteBuffer.wrap(buffer, 0, n));
                        }
                    }
                } while (wip.decrementAndGet() != 0);
            }

            private void end(Throwable t) {
                if (over) {
                    return;
                }
                over = true;
                close();
                subscriber.onError(t);
                done.completeExceptionally(t);
            }

            private void close() {
                try {
                    in.close();
                } catch (IOException e) {
                    // The run's body holds no resource a failed close would leak.
                }
            }
        }
    }

    @Override
    public String clientName() {
        return "ResilienceHarnessRunAsync";
    }

    @Override
    public void close() {
        // The run outlives the client.
    }
}
