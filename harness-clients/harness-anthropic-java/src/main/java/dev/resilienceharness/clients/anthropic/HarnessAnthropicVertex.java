package dev.resilienceharness.clients.anthropic;

import com.anthropic.vertex.backends.VertexBackend;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;

/**
 * anthropic-java's own Google Vertex AI backend ({@code anthropic-java-vertex}) with placeholder credentials, for
 * {@link HarnessAnthropic.Builder#backend}: requests go to
 * {@code projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict} (or
 * {@code :streamRawPredict}) with {@code anthropic_version} in the body, as on Vertex AI, and are answered by the run.
 */
public final class HarnessAnthropicVertex {

    private HarnessAnthropicVertex() {
    }

    /**
     * The backend for {@code project} in {@code region}, authorizing with a placeholder access token
     * ({@code Authorization: Bearer harness-replay}) that never expires, so no Google credentials are looked up or
     * refreshed, and that never leaves the process. The project and region are your own: they are in the path a
     * recording is sent to.
     */
    public static VertexBackend backend(String project, String region) {
        return VertexBackend.builder()
                .googleCredentials(GoogleCredentials.create(new AccessToken(HarnessAnthropic.REPLAY_KEY, null)))
                .project(project)
                .region(region)
                .build();
    }
}
