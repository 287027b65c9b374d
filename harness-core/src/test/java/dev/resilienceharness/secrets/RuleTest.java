package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuleTest {

    @Test
    void idsAreStable() {
        List<String> ids = new ArrayList<>();
        for (Rule r : Rule.values()) {
            ids.add(r.id());
        }
        // ids appear in baselines, SARIF and placeholders: changing one breaks users' files
        assertEquals(List.of("openai-key", "anthropic-key", "google-api-key", "huggingface-token", "groq-key",
                "aws-access-key-id", "github-token", "slack-token", "stripe-key", "jwt", "private-key",
                "credential-header", "high-entropy-secret", "email-address", "card-number"), ids);
    }

    @Test
    void byIdFindsEachRule() {
        for (Rule r : Rule.values()) {
            assertEquals(r, Rule.byId(r.id()));
            assertEquals(r.id(), r.toString());
        }
        assertNull(Rule.byId("no-such-rule"));
    }

    @Test
    void theCredentialHeaderRuleNamesEveryHeaderTheScanTreatsAsACredential() {
        String description = Rule.CREDENTIAL_HEADER.description().toLowerCase(java.util.Locale.ROOT);
        for (String header : List.of("Authorization", "Proxy-Authorization", "api-key", "x-api-key", "x-goog-api-key",
                "X-Amz-Security-Token", "Cookie", "Set-Cookie")) {
            assertTrue(CredentialHeaders.isCredential(header), header);
            assertTrue(description.contains(header.toLowerCase(java.util.Locale.ROOT)), header + ": " + description);
        }
        assertTrue(description.contains("sigv4"), "Bedrock's signed Authorization is named: " + description);
    }

    @Test
    void helpSaysWhatMatchesAndWhatToDo() {
        for (Rule r : Rule.values()) {
            assertTrue(r.help().startsWith(r.description()));
            assertTrue(r.help().contains("mvn resilience:record"));
            assertTrue(r.help().contains("redaction.allow"));
        }
    }
}
