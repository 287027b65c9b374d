package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BedrockAuthTest {

    private static final URI REGIONAL = URI.create("https://bedrock-runtime.eu-central-1.amazonaws.com");
    private static final URI GATEWAY = URI.create("http://127.0.0.1:8080");
    private static final Map<String, String> AWS = Map.of("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE",
            "AWS_SECRET_ACCESS_KEY", "secret", "AWS_REGION", "us-west-2");

    @Test
    void aKeyTheYamlNamesIsABedrockApiKeyAndWinsOverAwsCredentials() {
        BedrockAuth auth = BedrockAuth.of(REGIONAL, "bedrock-api-key", AWS::get);
        assertNull(auth.signer(), "sent as a Bearer token, not signed");
        assertNull(auth.refusal());
    }

    @Test
    void withoutAKeyAwsCredentialsSignForTheRegionTheHostNames() {
        BedrockAuth auth = BedrockAuth.of(REGIONAL, null, AWS::get);
        assertNotNull(auth.signer());
        assertEquals("eu-central-1", auth.signer().region(), "the host's region wins over AWS_REGION");
        assertEquals("us-west-2", BedrockAuth.of(GATEWAY, null, AWS::get).signer().region());
        assertEquals("us-gov-west-1", BedrockAuth.region(
                URI.create("https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com"), k -> null));
        assertEquals("bedrock", BedrockAuth.SERVICE);
    }

    @Test
    void neitherAKeyNorBothAwsCredentialsIsARefusalNamingBothWays() {
        assertEquals(LiveMessages.BEDROCK_NO_CREDENTIALS, BedrockAuth.of(REGIONAL, null, k -> null).refusal());
        Map<String, String> half = new HashMap<>(AWS);
        half.remove("AWS_SECRET_ACCESS_KEY");
        assertEquals(LiveMessages.BEDROCK_NO_CREDENTIALS, BedrockAuth.of(REGIONAL, null, half::get).refusal());
        half.put("AWS_SECRET_ACCESS_KEY", " ");
        assertEquals(LiveMessages.BEDROCK_NO_CREDENTIALS, BedrockAuth.of(REGIONAL, null, half::get).refusal(),
                "a blank variable is an unset one");
    }

    @Test
    void awsCredentialsWithNoRegionAnywhereAreARefusal() {
        Map<String, String> noRegion = new HashMap<>(AWS);
        noRegion.remove("AWS_REGION");
        BedrockAuth auth = BedrockAuth.of(GATEWAY, null, noRegion::get);
        assertNull(auth.signer());
        assertEquals(LiveMessages.BEDROCK_NO_REGION, auth.refusal());
    }
}
