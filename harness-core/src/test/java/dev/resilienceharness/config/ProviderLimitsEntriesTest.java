package dev.resilienceharness.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProviderLimitsEntriesTest {

    private static final Path FILE = Path.of("conf", "resilience.yaml");
    private static final String F = FILE.toString();

    private static final String HEAD = """
            version: 1
            policy:
              max_total_wait: 5m
            """;

    static HarnessConfig load(String yaml) throws ConfigException {
        return ConfigLoader.load(FILE, yaml.getBytes(UTF_8));
    }

    static String error(String yaml) {
        return assertThrows(ConfigException.class, () -> load(yaml)).getMessage();
    }

    @Test
    void topLevelLimitsApplyToEveryScenarioAndAScenarioChangesSingleKeys() throws ConfigException {
        HarnessConfig c = load(HEAD + """
                provider_limits:
                  requests_per_minute: 60
                  tokens_per_minute: 10000
                  token_quota: 200000
                  max_concurrency: 4
                scenarios:
                  - name: a
                    ops: [plan]
                  - name: b
                    ops: [plan]
                    provider_limits: {requests_per_minute: 2}
                """);
        assertEquals(new ProviderLimits(60, 10000, 200000L, 4, null), c.scenarios().get(0).limits());
        assertEquals(new ProviderLimits(2, 10000, 200000L, 4, null), c.scenarios().get(1).limits());
    }

    @Test
    void withoutABlockNothingIsLimited() throws ConfigException {
        HarnessConfig c = load(HEAD + "scenarios: [{name: a, ops: [plan]}]\n");
        assertEquals(ProviderLimits.NONE, c.scenarios().get(0).limits());
    }

    @Test
    void sharedTrueNamesThePoolSharedAndANameNamesItsOwnPool() throws ConfigException {
        HarnessConfig c = load(HEAD + """
                provider_limits: {requests_per_minute: 60, shared: true}
                scenarios:
                  - name: a
                    ops: [plan]
                  - name: b
                    ops: [plan]
                    provider_limits: {shared: false}
                  - name: c
                    ops: [plan]
                    provider_limits: {shared: team-b}
                """);
        assertEquals(ProviderLimits.SHARED, c.scenarios().get(0).limits().pool());
        assertNull(c.scenarios().get(1).limits().pool());
        assertEquals(60, c.scenarios().get(1).limits().requestsPerMinute());
        assertEquals("team-b", c.scenarios().get(2).limits().pool());
    }

    @Test
    void anUnknownKeyIsNamedWithASuggestion() {
        assertEquals(F + ":5:3: provider_limits.request_per_minute: unknown key 'request_per_minute'; did you mean"
                + " 'requests_per_minute'? The keys allowed here are: requests_per_minute, tokens_per_minute,"
                + " token_quota, max_concurrency, shared",
                error(HEAD + "provider_limits:\n  request_per_minute: 2\nscenarios: []\n"));
    }

    @Test
    void aZeroOrNegativeLimitIsRefusedAtItsLine() {
        assertEquals(F + ":7:44: scenarios[0].provider_limits.requests_per_minute: expected an integer of at least"
                + " 1, got 0", error(HEAD + """
                scenarios:
                  - name: a
                    ops: [plan]
                    provider_limits: {requests_per_minute: 0}
                """).replace("\r", ""));
        assertEquals(F + ":5:16: provider_limits.token_quota: expected an integer of at least 1, got -5",
                error(HEAD + "provider_limits:\n  token_quota: -5\nscenarios: []\n"));
    }

    @Test
    void aQuotedNumberOrAFractionIsNotALimit() {
        assertEquals(F + ":5:22: provider_limits.tokens_per_minute: expected an integer of at least 1, got the text"
                + " '100'", error(HEAD + "provider_limits:\n  tokens_per_minute: \"100\"\nscenarios: []\n"));
        assertEquals(F + ":5:16: provider_limits.token_quota: expected a whole number of tokens of at least 1, such"
                + " as 200000, got the number 1.5", error(HEAD + "provider_limits:\n  token_quota: 1.5\nscenarios: []\n"));
    }

    @Test
    void aTokenQuotaBeyondAnIntIsKept() throws ConfigException {
        HarnessConfig c = load(HEAD + "provider_limits: {token_quota: 5000000000}\nscenarios: [{name: a, ops: [p]}]\n");
        assertEquals(5_000_000_000L, c.scenarios().get(0).limits().tokenQuota());
        assertEquals(F + ":5:16: provider_limits.token_quota: numbers too large: an integer here may have at most 15"
                + " digits", error(HEAD + "provider_limits:\n  token_quota: 1234567890123456\nscenarios: []\n"));
    }

    @Test
    void sharedIsABooleanOrAPoolName() {
        assertEquals(F + ":5:11: provider_limits.shared: expected true, false, or a pool name such as team-a"
                + " (letters, digits, _ . -), got the text 'team a'",
                error(HEAD + "provider_limits:\n  shared: team a\nscenarios: []\n"));
        assertEquals(F + ":5:11: provider_limits.shared: expected true, false, or a pool name such as team-a"
                + " (letters, digits, _ . -), got the number 3",
                error(HEAD + "provider_limits:\n  shared: 3\nscenarios: []\n"));
    }

    @Test
    void theBlockMustBeAMapping() {
        assertEquals(F + ":4:18: provider_limits: expected a mapping of provider limits (requests_per_minute,"
                + " tokens_per_minute, token_quota, max_concurrency, shared), got a list",
                error(HEAD + "provider_limits: [2]\nscenarios: []\n"));
    }

    @Test
    void scenariosOfOnePoolMustHaveTheSameLimits() {
        assertEquals(F + ":10:22: scenarios[1].provider_limits: scenario 'b' shares the endpoint 'shared' with"
                + " scenario 'a' but has other limits; an endpoint has one set of limits: declare them once at top"
                + " level, or the same in every scenario of the pool", error(HEAD + """
                provider_limits: {requests_per_minute: 60, shared: true}
                scenarios:
                  - name: a
                    ops: [plan]
                  - name: b
                    ops: [plan]
                    provider_limits: {requests_per_minute: 30}
                """));
    }
}
