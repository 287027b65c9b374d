package dev.resilienceharness.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlReader;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.policy.RetryAfterHandling;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PartialPolicyTest {

    private static final NodeReader R = new NodeReader(Path.of("p.yaml"));

    private static PartialPolicy read(String yaml) throws ConfigException {
        return PartialPolicy.read(R, YamlReader.read(Path.of("p.yaml"), yaml.getBytes(UTF_8)), "policy");
    }

    @Test
    void readsEveryKey() throws Exception {
        PartialPolicy p = read("""
                max_attempts: 5
                base_delay: 1ms
                max_delay: 3s
                max_total_wait: 2m
                quota: {with_retry_after: stop, max_retry_after: 7s}
                schema: {repair_attempts: 0}
                slow_first_token: {threshold: 0.5}
                concurrency: 2
                """);
        assertEquals(new PartialPolicy(5, Duration.ofMillis(1), Duration.ofSeconds(3), Duration.ofMinutes(2),
                RetryAfterHandling.STOP, Duration.ofSeconds(7), 0, Duration.ofMillis(500), 2), p);
    }

    @Test
    void leavesUnsaidKeysNull() throws Exception {
        assertEquals(PartialPolicy.EMPTY, read("{quota: {}, schema: {}, slow_first_token: {}}"));
    }

    @Test
    void overridesKeyByKeyIncludingNestedOnes() throws Exception {
        PartialPolicy top = read("{max_attempts: 2, max_total_wait: 30s, quota: {with_retry_after: stop}}");
        PartialPolicy scenario = read("{quota: {max_retry_after: 5s}, concurrency: 1}");

        Policy effective = scenario.over(top).toPolicy();
        assertEquals(2, effective.maxAttempts());
        assertEquals(new Policy.Quota(RetryAfterHandling.STOP, Duration.ofSeconds(5)), effective.quota());
        assertEquals(1, effective.concurrency());
        assertEquals(Duration.ofSeconds(30), effective.maxTotalWait());
    }

    @Test
    void fillsDefaults() throws Exception {
        assertEquals(Policy.defaults(Duration.ofSeconds(9)), read("{max_total_wait: 9s}").toPolicy());
    }

    @Test
    void maxTotalWaitHasNoDefault() {
        assertThrows(IllegalStateException.class, PartialPolicy.EMPTY::toPolicy);
    }

    @Test
    void nestedBlocksMustBeMappings() {
        assertEquals("p.yaml:1:9: policy.quota: expected a mapping with with_retry_after and max_retry_after, got"
                + " the text 'stop'", assertThrows(ConfigException.class, () -> read("{quota: stop}")).getMessage());
        assertEquals("p.yaml:2:2: policy.slow_first_token.treshold: unknown key 'treshold'; did you mean"
                + " 'threshold'? The keys allowed here are: threshold",
                assertThrows(ConfigException.class, () -> read("slow_first_token:\n treshold: 1s\n")).getMessage());
    }

    @Test
    void readsMaxRoundsAndLaysAScenarioOverrideOverTheTopLevel() throws Exception {
        PartialPolicy top = read("{max_total_wait: 30s, max_rounds: 3}");
        assertEquals(3, top.maxRounds());
        assertEquals(3, top.toPolicy().maxRounds());
        assertEquals(3, read("{concurrency: 1}").over(top).toPolicy().maxRounds());
        assertEquals(5, read("{max_rounds: 5}").over(top).toPolicy().maxRounds());
        assertEquals(null, read("{max_attempts: 2}").maxRounds());
        assertEquals(1, read("{max_total_wait: 9s}").toPolicy().maxRounds());
    }
}
