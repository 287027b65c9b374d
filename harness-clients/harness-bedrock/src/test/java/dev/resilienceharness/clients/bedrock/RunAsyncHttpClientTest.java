package dev.resilienceharness.clients.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.clients.tck.AnsweringEndpoint;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.async.AsyncExecuteRequest;
import software.amazon.awssdk.http.async.SdkAsyncHttpResponseHandler;
import software.amazon.awssdk.http.async.SdkHttpContentPublisher;

class RunAsyncHttpClientTest {

    /** What a response handler was given, in order. */
    private static final class Seen implements SdkAsyncHttpResponseHandler {
        final List<String> signals = new ArrayList<>();
        final StringBuilder body = new StringBuilder();

        @Override
        public void onHeaders(SdkHttpResponse headers) {
            signals.add("headers " + headers.statusCode());
        }

        @Override
        public void onStream(Publisher<ByteBuffer> stream) {
            signals.add("stream");
            stream.subscribe(new Subscriber<>() {
                @Override
                public void onSubscribe(Subscription s) {
                    s.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(ByteBuffer b) {
                    body.append(StandardCharsets.UTF_8.decode(b));
                }

                @Override
                public void onError(Throwable t) {
                    signals.add("body error " + t.getMessage());
                }

                @Override
                public void onComplete() {
                    signals.add("body complete");
                }
            });
        }

        @Override
        public void onError(Throwable error) {
            signals.add("error " + error.getClass().getSimpleName());
        }
    }

    private static SdkHttpContentPublisher content(String text) {
        return new SdkHttpContentPublisher() {
            @Override
            public Optional<Long> contentLength() {
                return Optional.of((long) text.length());
            }

            @Override
            public void subscribe(Subscriber<? super ByteBuffer> s) {
                s.onSubscribe(new Subscription() {
                    private boolean sent;

                    @Override
                    public void request(long n) {
                        if (!sent) {
                            sent = true;
                            s.onNext(ByteBuffer.wrap(text.substring(0, 5).getBytes(StandardCharsets.UTF_8)));
                            s.onNext(ByteBuffer.wrap(text.substring(5).getBytes(StandardCharsets.UTF_8)));
                            s.onComplete();
                        }
                    }

                    @Override
                    public void cancel() {
                    }
                });
            }
        };
    }

    @Test
    void theRequestBodyIsReadFromThePublisherAndTheAnswerHandedToTheHandler() {
        AnsweringEndpoint run = new AnsweringEndpoint(a -> "{\"ok\":true}");
        Seen seen = new Seen();
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.POST).protocol("https")
                .host("bedrock-runtime.us-east-1.amazonaws.com").encodedPath("/model/m/converse-stream")
                .putHeader("amz-sdk-request", "attempt=2; max=3").build();
        CompletableFuture<Void> done = new RunAsyncHttpClient(run).execute(AsyncExecuteRequest.builder()
                .request(request).requestContentPublisher(content("{\"messages\":[]}")).responseHandler(seen).build());
        done.join();
        assertEquals("{\"messages\":[]}", new String(run.seen().get(0).body(), StandardCharsets.UTF_8));
        assertEquals("model/m/converse-stream", run.seen().get(0).path(), "the path below the endpoint");
        assertEquals(1, run.seen().get(0).sdkRetry(), "attempt=2 is the SDK's first retry");
        assertEquals(RunAsyncHttpClient.READ_TIMEOUT, run.seen().get(0).timeout());
        assertEquals(List.of("headers 200", "stream", "body complete"), seen.signals);
        assertEquals("{\"ok\":true}", seen.body.toString());
    }

    @Test
    void aFailedReadIsAnErrorOnThePublisherAndFailsTheAttempt() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("Connection reset: the stream was cut after 1 event");
            }
        };
        Seen seen = new Seen();
        seen.onStream(new RunAsyncHttpClient.BodyPublisher(failing, done));
        assertEquals(List.of("stream", "body error Connection reset: the stream was cut after 1 event"),
                seen.signals);
        CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, done::join);
        assertInstanceOf(IOException.class, e.getCause());
    }

    @Test
    void theBodyIsReadOnceAndOnlyOnDemand() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        RunAsyncHttpClient.BodyPublisher body = new RunAsyncHttpClient.BodyPublisher(
                new ByteArrayInputStream("abc".getBytes(StandardCharsets.UTF_8)), done);
        List<String> first = new ArrayList<>();
        Subscription[] subscription = new Subscription[1];
        body.subscribe(new Subscriber<>() {
            @Override
            public void onSubscribe(Subscription s) {
                subscription[0] = s;
            }

            @Override
            public void onNext(ByteBuffer b) {
                first.add(StandardCharsets.UTF_8.decode(b).toString());
            }

            @Override
            public void onError(Throwable t) {
                first.add("error " + t.getMessage());
            }

            @Override
            public void onComplete() {
                first.add("complete");
            }
        });
        assertEquals(List.of(), first, "nothing is read before it is asked for");
        subscription[0].request(0);
        assertTrue(first.get(0).startsWith("error a subscriber requests at least one item"), first.toString());
        Seen second = new Seen();
        second.onStream(body);
        assertEquals(List.of("stream", "body error the body can be read once"), second.signals);
    }
}
