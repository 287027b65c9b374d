package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VertexLocationTest {

    @Test
    void theRegionIsTheHostsAndTheProjectTheEnvironments() {
        VertexLocation at = VertexLocation.of(URI.create("https://us-east5-aiplatform.googleapis.com/v1"),
                Map.of("ANTHROPIC_VERTEX_PROJECT_ID", "my-project", "CLOUD_ML_REGION", "europe-west1")::get);
        assertEquals("projects/my-project/locations/us-east5/", at.prefix());
        assertNull(at.refusal());
    }

    @Test
    void aHostWithoutARegionTakesCloudMlRegion() {
        VertexLocation at = VertexLocation.of(URI.create("https://aiplatform.googleapis.com/v1"),
                Map.of("ANTHROPIC_VERTEX_PROJECT_ID", "my-project", "CLOUD_ML_REGION", "global")::get);
        assertEquals("projects/my-project/locations/global/", at.prefix());
    }

    @Test
    void aBaseUrlEndingWithProjectAndLocationIsUsedAsItIs() {
        VertexLocation at = VertexLocation.of(URI.create(
                "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5"),
                Map.<String, String>of()::get);
        assertEquals("", at.prefix());
    }

    @Test
    void withoutAProjectOrARegionNothingIsSentAndTheSentenceSaysWhatToSet() {
        assertEquals(LiveMessages.VERTEX_NO_PROJECT, VertexLocation.of(URI.create(
                "https://us-east5-aiplatform.googleapis.com/v1"), Map.<String, String>of()::get).refusal());
        assertEquals(LiveMessages.VERTEX_NO_PROJECT, VertexLocation.of(URI.create("http://127.0.0.1:9/v1"),
                Map.of("ANTHROPIC_VERTEX_PROJECT_ID", "p")::get).refusal());
    }
}
