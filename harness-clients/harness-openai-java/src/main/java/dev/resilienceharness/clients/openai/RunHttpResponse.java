package dev.resilienceharness.clients.openai;

import com.openai.core.http.Headers;
import com.openai.core.http.HttpResponse;
import dev.resilienceharness.http.HttpAnswer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** A scenario run's answer as openai-java reads a response: status, headers, and a body that may arrive late. */
final class RunHttpResponse implements HttpResponse {

    private final HttpAnswer.Response response;
    private final Headers headers;
    private final InputStream body;

    /** @param contentType the body's content type when it is not the answer's own, else {@code null} */
    RunHttpResponse(HttpAnswer.Response response, InputStream body, String contentType) {
        this.response = response;
        Headers.Builder builder = Headers.builder();
        response.headers().forEach(builder::put);
        if (contentType != null) {
            builder.replace("Content-Type", contentType);
        }
        this.headers = builder.build();
        this.body = body;
    }

    @Override
    public int statusCode() {
        return response.status();
    }

    @Override
    public Headers headers() {
        return headers;
    }

    @Override
    public InputStream body() {
        return body;
    }

    @Override
    public void close() {
        try {
            body.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
