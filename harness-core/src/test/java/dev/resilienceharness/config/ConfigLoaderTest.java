package dev.resilienceharness.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.yaml.YamlReader;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.policy.RetryAfterHandling;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ConfigLoaderTest {

    private static final Path FILE = Path.of("conf", "resilience.yaml");
    private static final String F = FILE.toString();

    /** The smallest valid file; tests append to it or replace a line of it. */
    private static final String MINIMAL = """
            version: 1
            policy:
              max_total_wait: 30s
            scenarios:
              - name: s
                ops: [plan]
            """;

    static HarnessConfig load(String yaml) throws ConfigException {
        return ConfigLoader.load(FILE, yaml.getBytes(UTF_8));
    }

    static String error(String yaml) {
        return assertThrows(ConfigException.class, () -> load(yaml)).getMessage();
    }

    static byte[] resource(String name) throws IOException {
        try (InputStream in = ConfigLoaderTest.class.getResourceAsStream("/config/" + name)) {
            return in.readAllBytes();
        }
    }

    static List<String> fieldNames(JsonNode node) {
        return List.copyOf(node.propertyNames());
    }

    static Scenario scenario(HarnessConfig config, String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    static Policy policy(int maxAttempts, String baseDelay, String maxDelay, String maxTotalWait,
            RetryAfterHandling withRetryAfter, String maxRetryAfter, int repairAttempts, String threshold,
            int concurrency) {
        return new Policy(maxAttempts, Durations.parse(baseDelay), Durations.parse(maxDelay),
                Durations.parse(maxTotalWait), new Policy.Quota(withRetryAfter, Durations.parse(maxRetryAfter)),
                new Policy.Schema(repairAttempts), new Policy.SlowFirstToken(Durations.parse(threshold)), concurrency);
    }

    @Nested
    class Corpora {

        @Test
        void plainCorpusGivesEachScenarioItsEffectivePolicy() throws Exception {
            HarnessConfig config = ConfigLoader.load(Path.of("plain", "resilience.yaml"), resource("plain-corpus.yaml"));

            assertEquals(30, config.scenarios().size());
            assertEquals(policy(3, "10ms", "5s", "30s", RetryAfterHandling.RETRY_ONCE, "60s", 1, "2s", 4),
                    config.policy());
            Scenario s0000 = scenario(config, "s0000");
            assertEquals(policy(1, "250ms", "20ms", "60s", RetryAfterHandling.RETRY_ONCE, "60s", 0, "2s", 2),
                    s0000.policy());
            assertEquals(Duration.ofMillis(250), s0000.policy().baseDelay());
            assertEquals(22, s0000.line());
            assertEquals(List.of("plan", "test", "review", "read", "patch", "commit"), s0000.ops());
            assertEquals(List.<Fault>of(NoFault.INSTANCE, BadToolCallFault.INSTANCE, NoFault.INSTANCE, NoFault.INSTANCE,
                    NoFault.INSTANCE, NoFault.INSTANCE, TimeoutFault.INSTANCE, new SlowFirstTokenFault(9000),
                    new QuotaFault("soon")), s0000.faults());

            Scenario s0019 = scenario(config, "s0019");
            assertEquals(new QuotaFault("1.5"), s0019.faults().get(2));
            assertEquals(new QuotaFault(null), s0019.faults().get(3));
            assertEquals(new ServerErrorFault(500), s0019.faults().get(5));
            assertEquals(RetryAfterHandling.STOP, s0019.policy().quota().withRetryAfter());
            assertEquals(Duration.ofMillis(50), s0019.policy().maxTotalWait());
            assertEquals(Duration.ofMillis(250), s0019.policy().baseDelay());
            assertEquals(List.of("response.id", "response.created", "response.system_fingerprint"),
                    config.volatilePaths());
            assertEquals(Path.of("plain", "cassettes").toAbsolutePath(), config.cassettes());
        }

        @Test
        void mixedCorpusKeepsRequestsAsJsonInKeyOrder() throws Exception {
            HarnessConfig config = ConfigLoader.load(Path.of("mixed", "resilience.yaml"), resource("mixed-corpus.yaml"));

            assertEquals(60, config.scenarios().size());
            // s0002 overrides five keys; with_retry_after alone of the quota block, so max_retry_after is inherited.
            assertEquals(policy(3, "5ms", "200ms", "2s", RetryAfterHandling.STOP, "60s", 1, "5s", 4),
                    scenario(config, "s0002").policy());
            // s0003 overrides only quota.max_retry_after: with_retry_after stays the top-level retry_once.
            assertEquals(policy(3, "0.25", "5s", "30s", RetryAfterHandling.RETRY_ONCE, "5s", 1, "2s", 4),
                    scenario(config, "s0003").policy());
            assertEquals(new QuotaFault("1"), scenario(config, "s0003").faults().get(0));

            ObjectNode patch = config.request("patch");
            assertEquals(List.of("model", "messages", "tools"), fieldNames(patch));
            assertEquals("m-1", patch.get("model").asString());
            JsonNode parameters = patch.get("tools").get(0).get("function").get("parameters");
            assertEquals(List.of("type", "required", "properties", "additionalProperties"), fieldNames(parameters));
            assertEquals("diff", parameters.get("required").get(1).asString());
            assertTrue(parameters.get("additionalProperties").isBoolean());
            assertEquals("{\"op\":\"plan\"}", config.request("plan").toString());
        }

        @Test
        void fullExampleSetsEveryKey(@TempDir Path dir) throws Exception {
            Path file = dir.resolve("resilience.yaml");
            Files.write(file, resource("full.yaml"));
            HarnessConfig config = ConfigLoader.load(file);

            assertEquals(dir.resolve("recorded/cassettes"), config.cassettes());
            assertEquals(List.of("response.id", "response.choices.*.message.id", "request.metadata.trace"),
                    config.volatilePaths());
            Policy top = policy(4, "20ms", "2.5s", "1m", RetryAfterHandling.STOP, "90s", 2, "1500ms", 8);
            assertEquals(top, config.policy());
            assertEquals("com.acme.agent.MyLoop", config.loop());
            assertEquals(new Budget(20), config.budget());
            assertEquals(new Redaction(List.of("sk-test-[0-9a-z]+", "0123456789abcdef"),
                    dir.resolve("secrets-baseline.json")), config.redaction());
            assertEquals(new Provider(URI.create("https://llm.example.test/v1"), "PROVIDER_API_KEY"),
                    config.provider());

            Scenario quota = scenario(config, "quota-keeps-partial-work");
            assertEquals(List.<Fault>of(NoFault.INSTANCE, new QuotaFault("2"), new QuotaFault("1.5"),
                    new QuotaFault("2"), new QuotaFault("Wed, 21 Oct 2015 07:28:00 GMT"), new QuotaFault(null),
                    new QuotaFault(null), new QuotaFault(null), new ServerErrorFault(503), new ServerErrorFault(500),
                    new SlowFirstTokenFault(3500), BadToolCallFault.INSTANCE, CrashFault.INSTANCE), quota.faults());
            assertEquals(new Expectations(List.of("ok", "stopped"), List.of(1, 2), Arrays.asList(null, "quota"),
                    Arrays.asList(null, "1.5")), quota.expect());
            assertEquals(top.withMaxAttempts(2).withQuota(new Policy.Quota(RetryAfterHandling.STOP,
                    Duration.ofSeconds(5))), quota.policy());

            Policy plainSeconds = scenario(config, "plain-seconds").policy();
            assertEquals(Duration.ofMillis(250), plainSeconds.baseDelay());
            assertEquals(Duration.ofSeconds(2), plainSeconds.maxDelay());
            assertEquals(Duration.ofMillis(10), plainSeconds.maxTotalWait());
            assertEquals(top, scenario(config, "same-as-top").policy());
            assertEquals(Expectations.NONE, scenario(config, "same-as-top").expect());
        }

        @Test
        void fullExampleRequestsBecomeTypedJson() throws Exception {
            ObjectNode plan = ConfigLoader.load(FILE, resource("full.yaml")).request("plan");

            assertEquals("{\"model\":\"m-1\",\"temperature\":0.5,\"max_tokens\":256,\"seed\":9007199254740993,"
                    + "\"big\":123456789012345678901234567890,\"stream\":false,\"stop\":null,"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"plan the fix\"}]}", plan.toString());
            assertTrue(plan.get("temperature").isDouble());
            assertTrue(plan.get("max_tokens").isInt());
            assertTrue(plan.get("seed").isLong());
            assertTrue(plan.get("big").isBigInteger());
        }
    }

    @Nested
    class Defaults {

        @Test
        void minimalFileGetsEveryDefault() throws Exception {
            HarnessConfig config = load(MINIMAL);

            assertEquals(FILE, config.file());
            assertEquals(1, config.version());
            assertEquals(FILE.toAbsolutePath().getParent().resolve("cassettes"), config.cassettes());
            assertEquals(List.of("response.id", "response.created", "response.system_fingerprint",
                    "response.responseId", "response.createTime"), config.volatilePaths());
            assertEquals(Policy.defaults(Duration.ofSeconds(30)), config.policy());
            assertEquals("builtin", config.loop());
            assertTrue(config.usesBuiltinLoop());
            assertTrue(config.requests().isEmpty());
            assertEquals(Budget.NONE, config.budget());
            assertEquals(Redaction.NONE, config.redaction());
            assertNull(config.provider());
            Scenario s = config.scenarios().get(0);
            assertEquals(new Scenario("s", List.of("plan"), List.of(), Expectations.NONE,
                    Policy.defaults(Duration.ofSeconds(30)), 5), s);
        }

        @Test
        void emptyVolatileListMeansNone() throws Exception {
            assertEquals(List.of(), load(MINIMAL + "volatile: []\n").volatilePaths());
        }

        @Test
        void scenarioOverridesNestedKeysOneByOne() throws Exception {
            HarnessConfig config = load("""
                    version: 1
                    policy:
                      max_total_wait: 30s
                      quota: {with_retry_after: stop, max_retry_after: 10s}
                    scenarios:
                      - name: s
                        ops: [plan]
                        policy: {quota: {max_retry_after: 5s}, schema: {repair_attempts: 0}}
                    """);

            Policy p = config.scenarios().get(0).policy();
            assertEquals(new Policy.Quota(RetryAfterHandling.STOP, Duration.ofSeconds(5)), p.quota());
            assertEquals(0, p.schema().repairAttempts());
            assertEquals(Duration.ofSeconds(10), config.policy().quota().maxRetryAfter());
        }

        @Test
        void everyScenarioMayDeclareItsOwnMaxTotalWait() throws Exception {
            HarnessConfig config = load("""
                    version: 1
                    scenarios:
                      - name: s
                        ops: [plan]
                        policy: {max_total_wait: 2s}
                    """);

            assertEquals(Duration.ofSeconds(2), config.scenarios().get(0).policy().maxTotalWait());
            assertEquals(Duration.ZERO, config.policy().maxTotalWait());
        }

        @Test
        void anchorsAndAliasesAreExpanded() throws Exception {
            HarnessConfig config = load("""
                    version: 1
                    policy: {max_total_wait: &wait 45s}
                    scenarios:
                      - name: s
                        ops: &ops [plan, patch]
                        policy: {max_delay: *wait}
                      - name: t
                        ops: *ops
                    """);

            assertEquals(List.of("plan", "patch"), config.scenarios().get(1).ops());
            assertEquals(Duration.ofSeconds(45), config.scenarios().get(0).policy().maxDelay());
        }

        @Test
        void aByteOrderMarkIsSkipped() throws Exception {
            byte[] yaml = ("\uFEFF" + MINIMAL).getBytes(UTF_8);
            assertEquals(1, ConfigLoader.load(FILE, yaml).scenarios().size());
        }
    }

    @Nested
    class FileErrors {

        @Test
        void fileOverFourMebibytesIsRefusedBeforeParsing(@TempDir Path dir) throws Exception {
            Path file = dir.resolve("resilience.yaml");
            byte[] big = new byte[YamlReader.MAX_BYTES + 1];
            Arrays.fill(big, (byte) '#');
            Files.write(file, big);

            ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(file));
            assertEquals(file + ": the file is 4194305 bytes; the limit is 4 MiB", e.getMessage());
            assertEquals(0, e.line());
            assertEquals(file + ": the file is 4194305 bytes; the limit is 4 MiB",
                    assertThrows(ConfigException.class, () -> ConfigLoader.load(file, big)).getMessage());
        }

        @Test
        void fileOfExactlyFourMebibytesIsRead() {
            byte[] comments = new byte[YamlReader.MAX_BYTES];
            Arrays.fill(comments, (byte) '#');
            comments[0] = '#';
            assertEquals(F + ":1:1: the file is empty: it needs at least version, policy.max_total_wait and"
                    + " scenarios", assertThrows(ConfigException.class, () -> ConfigLoader.load(FILE, comments))
                            .getMessage());
        }

        @Test
        void missingFileIsNamed(@TempDir Path dir) {
            Path file = dir.resolve("nope.yaml");
            assertEquals(file + ": the file does not exist; create it or point resilience.config at another file",
                    assertThrows(ConfigException.class, () -> ConfigLoader.load(file)).getMessage());
        }

        @Test
        void theCassetteFolderIsToldBeforeTheScenariosAreRead(@TempDir Path dir) throws Exception {
            Path file = dir.resolve("resilience.yaml");
            List<Path> told = new ArrayList<>();
            Files.writeString(file, MINIMAL + "cassettes: recorded/../tapes\n");
            HarnessConfig config = ConfigLoader.load(file, told::add);
            assertEquals(List.of(dir.toAbsolutePath().resolve("tapes")), told);
            assertEquals(config.cassettes(), told.get(0));

            told.clear();
            Files.writeString(file, MINIMAL);
            assertEquals(ConfigLoader.load(file, told::add).cassettes(), told.get(0));
            assertEquals(List.of(dir.toAbsolutePath().resolve("cassettes")), told);

            // Told before the scenarios are read: a scenario's error comes after it.
            told.clear();
            Files.writeString(file, MINIMAL.replace("ops: [plan]", "ops: [plan]\n    faults: [hiccup]"));
            String error = assertThrows(ConfigException.class, () -> ConfigLoader.load(file)).getMessage();
            assertEquals(error, assertThrows(ConfigException.class, () -> ConfigLoader.load(file, told::add))
                    .getMessage());
            assertEquals(List.of(dir.toAbsolutePath().resolve("cassettes")), told);
        }

        @Test
        void aCassetteFolderThatIsNotAPathIsNotToldAndFailsAsBefore(@TempDir Path dir) throws Exception {
            Path file = dir.resolve("resilience.yaml");
            Files.writeString(file, MINIMAL + "cassettes: [a, b]\n");
            List<Path> told = new ArrayList<>();
            String error = assertThrows(ConfigException.class, () -> ConfigLoader.load(file)).getMessage();
            assertTrue(error.contains("cassettes"), error);
            assertEquals(error, assertThrows(ConfigException.class, () -> ConfigLoader.load(file, told::add))
                    .getMessage());
            assertEquals(List.of(), told);
        }

        @Test
        void folderIsNotAFile(@TempDir Path dir) {
            assertEquals(dir + ": cannot read the file: it is a folder, not a file",
                    assertThrows(ConfigException.class, () -> ConfigLoader.load(dir)).getMessage());
        }

        @Test
        void bytesThatAreNotUtf8AreRefusedAtTheirLine() {
            byte[] head = "version: 1\nscenarios:\n  - name: caf".getBytes(UTF_8);
            byte[] latin1 = Arrays.copyOf(head, head.length + 3);
            latin1[head.length] = (byte) 0xe9; // é in ISO-8859-1
            latin1[head.length + 1] = ' ';
            latin1[head.length + 2] = '\n';

            assertEquals(F + ":3:14: the file is not valid UTF-8: byte 0xe9 cannot be decoded here; save the file"
                    + " as UTF-8", assertThrows(ConfigException.class, () -> ConfigLoader.load(FILE, latin1))
                            .getMessage());
        }

        @Test
        void emptyFileSaysWhatItNeeds() {
            String expected = F + ":1:1: the file is empty: it needs at least version, policy.max_total_wait and"
                    + " scenarios";
            assertEquals(expected, error(""));
            assertEquals(expected, error("# nothing here yet\n\n   # still nothing\n"));
            assertEquals(expected, error("---\n"));
        }

        @Test
        void topLevelMustBeAMapping() {
            assertEquals(F + ":1:1: the top level must be a mapping with keys such as version, policy and scenarios,"
                    + " got a list", error("- version: 1\n"));
            assertEquals(F + ":1:1: the top level must be a mapping with keys such as version, policy and scenarios,"
                    + " got a text", error("hello\n"));
        }

        @Test
        void syntaxErrorKeepsItsLineAndColumn() {
            assertEquals(F + ":4:9: not valid YAML: expected ',' or ']', but got : (while parsing a flow sequence)",
                    error("version: 1\nscenarios:\n  - ops: [plan\n  - name: x\n"));
        }

        @Test
        void duplicateKeysNameBothPlaces() {
            assertEquals(F + ":7:1: policy: duplicate key 'policy': first at line 2, column 1, again at line 7,"
                    + " column 1; keep only one", error(MINIMAL + "policy: {}\n"));
            assertEquals(F + ":7:5: scenarios[0].ops: duplicate key 'ops': first at line 6, column 5, again at line"
                    + " 7, column 5; keep only one", error(MINIMAL + "    ops: [patch]\n"));
        }

        @Test
        void aliasBombFailsFast() {
            String bomb = """
                    version: 1
                    a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]
                    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
                    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
                    d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
                    e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
                    f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
                    g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
                    h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
                    i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
                    """;
            String message = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> error(bomb));
            assertEquals(F + ":7:8: f[0]: the aliases expand to more than 100000 values, which looks like an alias"
                    + " bomb; write the values out instead", message);
        }

        @Test
        void manyAliasesToCollectionsAreCapped() {
            StringBuilder yaml = new StringBuilder("version: 1\nx: &x [1]\ny:\n");
            for (int i = 0; i < 51; i++) {
                yaml.append("  - *x\n");
            }
            assertEquals(F + ":54:5: y[50]: more than 50 aliases to lists or mappings; write the values out instead",
                    error(yaml.toString()));
        }

        @Test
        void nestingIsCapped() {
            String deep = "version: 1\nx: " + "[".repeat(70) + "]".repeat(70) + "\n";
            String message = error(deep);
            assertTrue(message.startsWith(F + ":2:67: x" + "[0]".repeat(63) + ": lists and mappings nested more than"
                    + " 64 levels deep; a resilience.yaml needs far fewer"), message);
        }

        @Test
        void secondDocumentIsRefused() {
            assertEquals(F + ":8:1: only one YAML document is allowed; remove the second '---' and what follows it",
                    error(MINIMAL + "---\nversion: 1\n"));
        }
    }

    @Test
    void aScenarioMayDrawItsLatencyFromTheRecordedSamples() throws Exception {
        assertEquals(true, load(MINIMAL + "    latency: recorded\n").scenarios().get(0).recordedLatency());
        assertEquals(false, load(MINIMAL).scenarios().get(0).recordedLatency());
        assertEquals(F + ":7:14: scenarios[0].latency: expected one of recorded, got the text 'p95'",
                error(MINIMAL + "    latency: p95\n"));
    }

    @Nested
    class KeyErrors {

        @Test
        void unknownTopLevelKeySuggestsTheNearest() {
            assertEquals(F + ":2:1: polcy: unknown key 'polcy'; did you mean 'policy'? The keys allowed here are:"
                    + " version, cassettes, volatile, policy, loop, requests, requests_from, scenarios, budget, redaction,"
                    + " provider, drift, provider_limits, secrets, tools, mcp_servers",
                    error(MINIMAL.replace("policy:", "polcy:")));
        }

        @Test
        void unknownNestedKeySuggestsTheNearest() {
            assertEquals(F + ":7:14: scenarios[0].policy.max_attemps: unknown key 'max_attemps'; did you mean"
                    + " 'max_attempts'? The keys allowed here are: max_attempts, base_delay, max_delay, max_total_wait,"
                    + " quota, schema, slow_first_token, concurrency, jitter, max_rounds",
                    error(MINIMAL + "    policy: {max_attemps: 2}\n"));
            assertEquals(F + ":3:11: policy.quota.retry_once: unknown key 'retry_once'; the keys allowed here are:"
                    + " with_retry_after, max_retry_after",
                    error(MINIMAL.replace("max_total_wait: 30s", "quota: {retry_once: true}")));
        }

        @Test
        void unknownKeyWithNoNearMissListsTheAllowedKeys() {
            assertEquals(F + ":7:5: scenarios[0].retries: unknown key 'retries'; the keys allowed here are: name,"
                    + " ops, faults, expect, policy, latency, provider_limits, tool_faults, mcp_faults",
                    error(MINIMAL + "    retries: 3\n"));
        }

        @Test
        void missingVersion() {
            assertEquals(F + ":1:1: version: missing required key 'version': declare version: 1",
                    error(MINIMAL.replace("version: 1\n", "")));
        }

        @Test
        void wrongVersion() {
            assertEquals(F + ":1:10: version: expected 1, the only version of this format, got the number 2",
                    error(MINIMAL.replace("version: 1", "version: 2")));
            assertEquals(F + ":1:10: version: expected 1, the only version of this format, got the text '1'",
                    error(MINIMAL.replace("version: 1", "version: '1'")));
        }

        @Test
        void scenariosMayBeLeftOutOrEmptyForAFolderOfCassettes() throws Exception {
            // Issue 15, point 5: verify-cassettes and scan-secrets run on a bare folder, so the yaml loads without
            // scenarios (it used to be refused); the scenario goals warn instead.
            assertEquals(List.of(), load("version: 1\ncassettes: recorded\n").scenarios());
            assertEquals(List.of(), load("version: 1\nscenarios: []\n").scenarios());
            assertEquals(F + ":2:12: scenarios: expected a list of scenarios, got the text 'none'",
                    error("version: 1\nscenarios: none\n"));
        }

        @Test
        void aScenarioWithoutOpsIsAFaultPlanForServe() throws Exception {
            HarnessConfig config = load("version: 1\npolicy: {max_total_wait: 1s}\nscenarios:\n"
                    + "  - {name: storm, faults: [quota, quota]}\n");
            assertEquals(List.of(), config.scenarios().get(0).ops());
            assertEquals(2, config.scenarios().get(0).faults().size());
            assertEquals(F + ":4:24: scenarios[0].ops: expected a non-empty list of op names such as [plan, patch],"
                    + " got an empty list", error("version: 1\npolicy: {max_total_wait: 1s}\nscenarios:\n"
                    + "  - {name: storm, ops: []}\n"));
        }

        @Test
        void missingMaxTotalWaitIsReportedAtThePolicy() {
            assertEquals(F + ":2:1: policy.max_total_wait: declare policy.max_total_wait, the bound on all virtual"
                    + " waiting in one scenario run (e.g. 30s); scenario 's' has none",
                    error(MINIMAL.replace("max_total_wait: 30s", "max_attempts: 2")));
        }

        @Test
        void missingMaxTotalWaitWithoutAnyPolicyIsReportedAtTheTop() {
            assertEquals(F + ":1:1: policy.max_total_wait: declare policy.max_total_wait, the bound on all virtual"
                    + " waiting in one scenario run (e.g. 30s); scenario 'second' has none", error("""
                    version: 1
                    scenarios:
                      - {name: first, ops: [plan], policy: {max_total_wait: 1s}}
                      - {name: second, ops: [plan]}
                    """));
        }

        @Test
        void duplicateScenarioNamesNameBothLines() {
            assertEquals(F + ":7:11: scenarios[1].name: duplicate scenario name 's': first at line 5, again at line"
                    + " 7; scenario names must be unique", error(MINIMAL + "  - name: s\n    ops: [patch]\n"));
        }

        @Test
        void missingScenarioName() {
            assertEquals(F + ":5:5: scenarios[0].name: missing required key 'name': every scenario needs a unique"
                    + " name", error(MINIMAL.replace("- name: s\n    ops", "- ops")));
        }

        @Test
        void nullWhereAListBelongsSaysHowToWriteAnEmptyOne() {
            assertEquals(F + ":7:12: scenarios[0].faults: expected a list of faults, got nothing (null); write []"
                    + " for an empty list", error(MINIMAL + "    faults:\n"));
        }

        @Test
        void emptyOpName() {
            assertEquals(F + ":6:17: scenarios[0].ops[1]: expected an op name such as plan, got an empty text",
                    error(MINIMAL.replace("[plan]", "[plan, '']")));
        }

        @Test
        void opNameMustBeText() {
            assertEquals(F + ":6:17: scenarios[0].ops[1]: expected an op name such as plan, got the number 2",
                    error(MINIMAL.replace("[plan]", "[plan, 2]")));
        }
    }

    @Nested
    class ValueErrors {

        private String policyError(String line) {
            return error(MINIMAL.replace("max_total_wait: 30s", "max_total_wait: 30s\n  " + line));
        }

        @Test
        void durationThatIsNotOne() {
            assertEquals(F + ":4:15: policy.base_delay: expected a duration such as 10ms, 2s, 1m or a plain number"
                    + " of seconds, got 'fast'", policyError("base_delay: fast"));
            assertEquals(F + ":4:15: policy.base_delay: expected a duration such as 10ms, 2s, 1m or a plain number"
                    + " of seconds, got '10 ms'", policyError("base_delay: 10 ms"));
            assertEquals(F + ":4:15: policy.base_delay: expected a duration such as 10ms, 2s, 1m or a plain number"
                    + " of seconds, got a list", policyError("base_delay: [1s]"));
        }

        @Test
        void negativeDuration() {
            assertEquals(F + ":4:14: policy.max_delay: a duration must not be negative, got '-1s'",
                    policyError("max_delay: -1s"));
            assertEquals(F + ":4:14: policy.max_delay: a duration must not be negative, got '-0.5'",
                    policyError("max_delay: -0.5"));
        }

        @Test
        void absurdlyLongDuration() {
            assertEquals(F + ":4:14: policy.max_delay: numbers too large: a duration is at most one year (365"
                    + " days), got '600000m'", policyError("max_delay: 600000m"));
        }

        @Test
        void integerTooLargeForAnInt() {
            assertEquals(F + ":4:17: policy.max_attempts: numbers too large: 99999999999 does not fit in an integer"
                    + " (at most 2147483647)", policyError("max_attempts: 99999999999"));
        }

        @Test
        void integerBelowItsMinimum() {
            assertEquals(F + ":4:17: policy.max_attempts: expected an integer of at least 1, got 0",
                    policyError("max_attempts: 0"));
            assertEquals(F + ":4:16: policy.concurrency: expected an integer of at least 1, got -2",
                    policyError("concurrency: -2"));
            assertEquals(F + ":4:29: policy.schema.repair_attempts: expected an integer of at least 0, got -1",
                    policyError("schema: {repair_attempts: -1}"));
        }

        @Test
        void maxRoundsIsValidatedAsStrictlyAsMaxAttempts() {
            assertEquals(F + ":4:15: policy.max_rounds: expected an integer of at least 1, got 0",
                    policyError("max_rounds: 0"));
            assertEquals(F + ":4:15: policy.max_rounds: expected an integer of at least 1, got the text 'three'",
                    policyError("max_rounds: three"));
            assertEquals(F + ":4:15: policy.max_rounds: expected an integer of at least 1, got the number 2.5",
                    policyError("max_rounds: 2.5"));
            assertEquals(F + ":7:26: scenarios[0].policy.max_rounds: expected an integer of at least 1, got -1",
                    error(MINIMAL + "    policy: {max_rounds: -1}\n"));
            assertEquals(F + ":7:14: scenarios[0].policy.max_round: unknown key 'max_round'; did you mean"
                    + " 'max_rounds'? The keys allowed here are: max_attempts, base_delay, max_delay, max_total_wait,"
                    + " quota, schema, slow_first_token, concurrency, jitter, max_rounds",
                    error(MINIMAL + "    policy: {max_round: 2}\n"));
        }

        @Test
        void maxRoundsDefaultsToOneAndAScenarioMayOverrideIt() throws ConfigException {
            assertEquals(1, load(MINIMAL).policy().maxRounds());
            assertEquals(1, load(MINIMAL).scenarios().get(0).policy().maxRounds());
            HarnessConfig config = load(MINIMAL.replace("max_total_wait: 30s", "max_total_wait: 30s\n  max_rounds: 2")
                    + "  - name: turn\n    ops: [resolve]\n    policy: {max_rounds: 4}\n");
            assertEquals(2, config.policy().maxRounds());
            assertEquals(2, config.scenarios().get(0).policy().maxRounds());
            assertEquals(4, config.scenarios().get(1).policy().maxRounds());
        }

        @Test
        void integerWrittenAsText() {
            assertEquals(F + ":4:17: policy.max_attempts: expected an integer of at least 1, got the text '3'",
                    policyError("max_attempts: '3'"));
            assertEquals(F + ":4:17: policy.max_attempts: expected an integer of at least 1, got the number 2.5",
                    policyError("max_attempts: 2.5"));
        }

        @Test
        void aVolatilePathNamingAWholePartIsAnErrorAtItsLine() {
            assertEquals(F + ":2:25: volatile[1]: volatile path \"timing\" names a whole part of the cassette; name a"
                    + " field inside it, like response.id", error(MINIMAL.replace("version: 1\n",
                            "version: 1\nvolatile: [response.id, timing]\n")));
        }

        @Test
        void jitterIsNoneFullOrEqual() throws Exception {
            assertEquals(F + ":4:11: policy.jitter: expected one of none, full, equal, got the text 'ful'; did you"
                    + " mean 'full'?", policyError("jitter: ful"));
            assertEquals(dev.resilienceharness.policy.Jitter.EQUAL,
                    load(MINIMAL.replace("max_total_wait: 30s", "max_total_wait: 30s\n  jitter: equal")).policy()
                            .jitter());
            assertEquals(dev.resilienceharness.policy.Jitter.NONE, load(MINIMAL).policy().jitter());
        }

        @Test
        void repairInstructionIsText() throws Exception {
            assertEquals(F + ":4:32: policy.schema.repair_instruction: expected the instruction a repair call appends"
                    + " to the request's messages, as text, got the number 3", policyError("schema: {repair_instruction: 3}"));
            assertEquals("Reply with valid JSON only", load(MINIMAL.replace("max_total_wait: 30s",
                    "max_total_wait: 30s\n  schema: {repair_instruction: Reply with valid JSON only}")).policy()
                    .schema().repairInstruction());
            assertNull(load(MINIMAL).policy().schema().repairInstruction());
        }

        @Test
        void expectNamesElapsedMsAndConcurrency() throws Exception {
            Scenario s = load(MINIMAL + "    expect: {elapsed_ms: [3500, null], concurrency: [2, null]}\n")
                    .scenarios().get(0);
            assertEquals(Arrays.asList(3500L, null), s.expect().elapsedMs());
            assertEquals(Arrays.asList(2, null), s.expect().concurrency());
            assertEquals(F + ":7:28: scenarios[0].expect.concurrency[0]: expected an integer of at least 1, got 0",
                    error(MINIMAL + "    expect: {concurrency: [0]}\n"));
        }

        @Test
        void retryAfterHandlingSuggestsTheNearest() {
            assertEquals(F + ":4:29: policy.quota.with_retry_after: expected one of retry_once, stop, got the text"
                    + " 'retry-once'; did you mean 'retry_once'?", policyError("quota: {with_retry_after: retry-once}"));
        }

        @Test
        void unknownFaultSuggestsTheNearestAndListsTheKinds() {
            assertEquals(F + ":7:20: scenarios[0].faults[1]: unknown fault 'timout'; did you mean 'timeout'? The"
                    + " fault kinds are: none, timeout, server_error, quota, bad_tool_call, slow_first_token, crash, latency"
                    + ", stream_cut, stream_stall, malformed_event, stream_error, truncated_tool_call",
                    error(MINIMAL + "    faults: [none, timout]\n"));
            assertEquals(F + ":7:15: scenarios[0].faults[0].qouta: unknown fault 'qouta'; did you mean 'quota'? The"
                    + " fault kinds are: none, timeout, server_error, quota, bad_tool_call, slow_first_token, crash, latency"
                    + ", stream_cut, stream_stall, malformed_event, stream_error, truncated_tool_call",
                    error(MINIMAL + "    faults: [{qouta: {}}]\n"));
        }

        @Test
        void faultSettingsAreChecked() {
            assertEquals(F + ":7:38: scenarios[0].faults[0].server_error.status: expected a 5xx status from 500 to"
                    + " 599, got the number 404", error(MINIMAL + "    faults: [{server_error: {status: 404}}]\n"));
            assertEquals(F + ":7:14: scenarios[0].faults[0]: the fault slow_first_token needs settings: write"
                    + " {slow_first_token: {elapsed_ms: 3500}}", error(MINIMAL + "    faults: [slow_first_token]\n"));
            assertEquals(F + ":7:36: scenarios[0].faults[0].quota.retry_after: expected the Retry-After header text:"
                    + " seconds such as \"2\" or \"1.5\", or an HTTP-date, got the boolean true",
                    error(MINIMAL + "    faults: [{quota: {retry_after: true}}]\n"));
        }

        @Test
        void expectationsAreChecked() {
            assertEquals(F + ":7:27: scenarios[0].expect.status[1]: expected one of ok, degraded, stopped, got the"
                    + " text 'stoped'; did you mean 'stopped'?", error(MINIMAL + "    expect: {status: [ok, stoped]}\n"));
            assertEquals(F + ":7:25: scenarios[0].expect.attempts[0]: expected an integer of at least 0, got the"
                    + " text 'two'", error(MINIMAL + "    expect: {attempts: [two]}\n"));
        }

        @Test
        void badRegexIsReportedAtItsLine() {
            assertEquals(F + ":10:7: redaction.allow[1]: not a valid regular expression (Unclosed group near index"
                    + " 5); write a Java regex or a 16-hex finding fingerprint",
                    error(MINIMAL + "redaction:\n  allow:\n    - 0123456789abcdef\n    - 'sk-(x'\n"));
        }

        @Test
        void providerUrlAndKeyName() {
            assertEquals(F + ":7:22: provider.base_url: expected an http or https URL such as"
                    + " https://llm.example.test/v1, got the text 'ftp://llm.example.test'",
                    error(MINIMAL + "provider: {base_url: 'ftp://llm.example.test'}\n"));
            assertEquals(F + ":7:55: provider.api_key_env: expected the name of an environment variable such as"
                    + " PROVIDER_API_KEY, got the text 'my key'",
                    error(MINIMAL + "provider: {base_url: 'https://llm.test', api_key_env: my key}\n"));
            assertEquals(F + ":7:11: provider.base_url: missing required key 'base_url': the provider's"
                    + " OpenAI-compatible base URL, such as https://llm.example.test/v1",
                    error(MINIMAL + "provider: {api_key_env: KEY}\n"));
        }

        @Test
        void loopMustBeBuiltinOrAClassName() {
            assertEquals(F + ":7:7: loop: expected builtin or the binary class name of your loop, such as"
                    + " com.acme.agent.MyLoop, got the text 'bultin'; did you mean 'builtin'?",
                    error(MINIMAL + "loop: bultin\n"));
            assertEquals(F + ":7:7: loop: expected builtin or the binary class name of your loop, such as"
                    + " com.acme.agent.MyLoop, got the text 'com.acme.My Loop'", error(MINIMAL + "loop: com.acme.My Loop\n"));
            assertEquals("com.acme.Outer$Loop", assertDoesLoad(MINIMAL + "loop: com.acme.Outer$Loop\n").loop());
        }

        @Test
        void volatilePathsAreDottedPathsIntoACassette() {
            assertEquals(F + ":7:12: volatile[0]: expected a path starting with request, response, timing or *, got"
                    + " 'reponse.id'; did you mean 'response.id'?", error(MINIMAL + "volatile: [reponse.id]\n"));
            assertEquals(F + ":7:25: volatile[1]: expected a dotted path into the cassette such as response.id, with"
                    + " no empty part, got the text 'response..id'",
                    error(MINIMAL + "volatile: [response.id, response..id]\n"));
        }

        @Test
        void requestMustBeAMappingOfFiniteValues() {
            assertEquals(F + ":7:18: requests.plan: expected the JSON request sent for op 'plan', written as a"
                    + " mapping such as {model: m, messages: [...]}, got a list", error(MINIMAL + "requests: {plan: [1]}\n"));
            assertEquals(F + ":7:32: requests.plan.temperature: expected a finite number (JSON has no NaN or"
                    + " infinity), got .inf", error(MINIMAL + "requests: {plan: {temperature: .inf}}\n"));
        }

        @Test
        void budgetMustBePositive() {
            assertEquals(F + ":7:34: budget.max_calls_per_scenario: expected an integer of at least 1, got 0",
                    error(MINIMAL + "budget: {max_calls_per_scenario: 0}\n"));
        }

        @Test
        void unsupportedTag() {
            assertEquals(F + ":7:7: loop: the tag '!!binary' is not supported; remove it (only !!str, !!map and !!seq"
                    + " are accepted)", error(MINIMAL + "loop: !!binary aGVsbG8=\n"));
        }

        /** {@code n} one-line requests, op{@code i} for i from 0, with {@code odd} standing in for some of them. */
        private String manyRequests(int n, java.util.Map<Integer, String> odd) {
            StringBuilder yaml = new StringBuilder(MINIMAL).append("requests:\n");
            for (int i = 0; i < n; i++) {
                yaml.append("  op").append(i).append(": ")
                        .append(odd.getOrDefault(i, "{model: m, messages: [{role: user, content: 'hi " + i + "'}]}"))
                        .append('\n');
            }
            return yaml.toString();
        }

        @Test
        void aLongRequestListIsReadWholeAndItsFirstProblemIsReported() throws Exception {
            int n = ConfigLoader.PARALLEL_REQUESTS * 4;
            HarnessConfig config = load(manyRequests(n, java.util.Map.of()));
            assertEquals(n, config.requests().size());
            assertEquals("hi 700", config.requests().get("op700").get("messages").get(0).get("content").asString());
            assertEquals(F + ":710:3: requests.op702: ", config.where("op702"));
            // Three problems far apart: the one nearest the top is reported, whichever core read it first.
            String yaml = manyRequests(n, java.util.Map.of(900, "{temperature: .nan}", 40,
                    "{messages: [{role: user, n: [1, .inf]}]}", 300, "[1]"));
            for (int run = 0; run < 5; run++) {
                assertEquals(F + ":48:41: requests.op40.messages[0].n[1]: expected a finite number (JSON has no NaN or"
                        + " infinity), got .inf", error(yaml));
            }
            assertEquals(F + ":308:10: requests.op300: expected the JSON request sent for op 'op300', written as a"
                    + " mapping such as {model: m, messages: [...]}, got a list",
                    error(manyRequests(n, java.util.Map.of(900, "{temperature: .nan}", 300, "[1]"))));
        }

        private HarnessConfig assertDoesLoad(String yaml) {
            try {
                return load(yaml);
            } catch (ConfigException e) {
                throw new AssertionError(e.getMessage(), e);
            }
        }
    }

    @Nested
    class RequestsFrom {

        @org.junit.jupiter.api.io.TempDir
        Path dir;

        private static final String SHARED = """
                version: 1
                requests:
                  plan: {model: m, messages: [{role: user, content: plan it}]}
                  review: {model: m, messages: [{role: user, content: review it}]}
                """;

        private HarnessConfig loadWith(String shared, String yaml) throws Exception {
            java.nio.file.Files.writeString(dir.resolve("shared.yaml"), shared);
            java.nio.file.Files.writeString(dir.resolve("resilience.yaml"), yaml);
            return ConfigLoader.load(dir.resolve("resilience.yaml"));
        }

        private String errorWith(String shared, String yaml) {
            return assertThrows(ConfigException.class, () -> loadWith(shared, yaml)).getMessage();
        }

        private static final String OWN = """
                version: 1
                policy: {max_total_wait: 1s}
                requests_from: shared.yaml
                scenarios:
                  - name: s
                    ops: [plan]
                """;

        @Test
        void requestsComeFromTheNamedFileAndPointThere() throws Exception {
            HarnessConfig config = loadWith(SHARED, OWN);
            assertEquals("plan it", config.request("plan").get("messages").get(0).get("content").asString());
            assertEquals(java.util.Set.of("plan", "review"), config.requests().keySet());
            assertEquals(dir.resolve("shared.yaml") + ":3:3: requests.plan: ", config.where("plan"));
            assertTrue(config.readsOtherFiles());
            assertFalse(load(MINIMAL).readsOtherFiles());
        }

        @Test
        void ownRequestsAddToTheSharedOnes() throws Exception {
            HarnessConfig config = loadWith(SHARED, OWN + "requests:\n  patch: {model: m}\n");
            assertEquals(java.util.Set.of("plan", "review", "patch"), config.requests().keySet());
            assertEquals(dir.resolve("resilience.yaml") + ":8:3: requests.patch: ", config.where("patch"));
        }

        @Test
        void anOpDeclaredInBothFilesIsAnError() {
            assertEquals(dir.resolve("resilience.yaml") + ":8:3: requests.plan: the request for op 'plan' is also"
                    + " declared at " + dir.resolve("shared.yaml") + ":3:3 (requests_from); declare each request in"
                    + " one file", errorWith(SHARED, OWN + "requests:\n  plan: {model: m}\n"));
        }

        @Test
        void aMissingFileIsAnErrorAtTheKey() {
            assertEquals(dir.resolve("resilience.yaml") + ":3:16: requests_from: no such file "
                    + dir.resolve("nope.yaml") + "; name a yaml with requests:, relative to this file",
                    errorWith(SHARED, OWN.replace("shared.yaml", "nope.yaml")));
        }

        @Test
        void errorsInTheSharedFileNameThatFile() {
            assertEquals(dir.resolve("shared.yaml") + ":2:9: requests.plan: expected the JSON request sent for op"
                    + " 'plan', written as a mapping such as {model: m, messages: [...]}, got a list",
                    errorWith("requests:\n  plan: [1]\n", OWN));
            assertEquals(dir.resolve("shared.yaml") + ":1:1: requsts: unknown key 'requsts'; did you mean"
                    + " 'requests'? The keys allowed here are: " + String.join(", ", ConfigLoader.TOP_KEYS),
                    errorWith("requsts: {}\n", OWN));
        }

        @Test
        void aSharedFileWithoutRequestsOrNamingAnotherIsAnError() {
            assertEquals(dir.resolve("resilience.yaml") + ":3:16: requests_from: " + dir.resolve("shared.yaml")
                    + " has no requests: to share", errorWith("version: 1\n", OWN));
            assertEquals(dir.resolve("shared.yaml") + ":2:1: requests_from: a file named by requests_from cannot"
                    + " name another one; declare the shared requests in one file",
                    errorWith("requests: {}\nrequests_from: other.yaml\n", OWN));
            assertEquals(dir.resolve("resilience.yaml") + ":3:16: requests_from: names this file itself; name the"
                    + " yaml whose requests: you want to share", errorWith(SHARED, OWN.replace("shared.yaml",
                            "resilience.yaml")));
        }
    }

    @Nested
    class LoopOverride {

        @Test
        void anotherLoopReplacesTheYamlsAndFollowsItsRules() throws Exception {
            assertEquals("com.acme.Other", ConfigLoader.withLoop(load(MINIMAL), "com.acme.Other").loop());
            assertTrue(ConfigLoader.withLoop(load(MINIMAL + "loop: com.acme.Mine\n"), "builtin").usesBuiltinLoop());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ConfigLoader.withLoop(load(MINIMAL), "bultin"));
            assertEquals("expected builtin or the binary class name of your loop, such as com.acme.agent.MyLoop, got"
                    + " the text 'bultin'; did you mean 'builtin'?", e.getMessage());
        }
    }

    @Test
    void anOpListedByManyScenariosIsOneStringForAllOfThem() throws ConfigException {
        HarnessConfig config = load(MINIMAL.replace("ops: [plan]", "ops: [plan, patch]") + """
                  - name: t
                    ops: [patch, plan]
                """);
        Scenario s = scenario(config, "s");
        Scenario t = scenario(config, "t");
        assertEquals(List.of("patch", "plan"), t.ops());
        assertSame(s.ops().get(0), t.ops().get(1));
        assertSame(s.ops().get(1), t.ops().get(0));
    }
}
