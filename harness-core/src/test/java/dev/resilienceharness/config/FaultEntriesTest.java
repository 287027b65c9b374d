package dev.resilienceharness.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlReader;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.fault.MalformedEventFault;
import dev.resilienceharness.fault.StreamCutFault;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.fault.StreamStallFault;
import dev.resilienceharness.fault.TruncatedToolCallFault;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FaultEntriesTest {

    private static final Path FILE = Path.of("f.yaml");

    private static Fault read(String yaml) throws ConfigException {
        return FaultEntries.read(new NodeReader(FILE), YamlReader.read(FILE, yaml.getBytes(UTF_8)), "f");
    }

    private static String error(String yaml) {
        return assertThrows(ConfigException.class, () -> read(yaml)).getMessage();
    }

    static Stream<Arguments> entries() {
        return Stream.of(
                Arguments.of("none", NoFault.INSTANCE),
                Arguments.of("timeout", TimeoutFault.INSTANCE),
                Arguments.of("server_error", new ServerErrorFault(503)),
                Arguments.of("quota", new QuotaFault(null)),
                Arguments.of("bad_tool_call", BadToolCallFault.INSTANCE),
                Arguments.of("crash", CrashFault.INSTANCE),
                Arguments.of("{server_error: {status: 599}}", new ServerErrorFault(599)),
                Arguments.of("{server_error: {}}", new ServerErrorFault(503)),
                Arguments.of("{quota: {}}", new QuotaFault(null)),
                Arguments.of("{quota: {retry_after: null}}", new QuotaFault(null)),
                Arguments.of("{quota: {retry_after: 1.5}}", new QuotaFault("1.5")),
                Arguments.of("{quota: {retry_after: 2}}", new QuotaFault("2")),
                Arguments.of("{quota: {retry_after: '2'}}", new QuotaFault("2")),
                Arguments.of("{quota: {retry_after: soon}}", new QuotaFault("soon")),
                Arguments.of("{quota: {retry_after: -3}}", new QuotaFault("-3")),
                Arguments.of("{quota: {retry_after: 'Wed, 21 Oct 2015 07:28:00 GMT'}}",
                        new QuotaFault("Wed, 21 Oct 2015 07:28:00 GMT")),
                Arguments.of("{slow_first_token: {elapsed_ms: 0}}", new SlowFirstTokenFault(0)),
                Arguments.of("{slow_first_token: {elapsed_ms: 3500}}", new SlowFirstTokenFault(3500)),
                Arguments.of("{timeout: {}}", TimeoutFault.INSTANCE),
                Arguments.of("{crash: {}}", CrashFault.INSTANCE),
                Arguments.of("{stream_cut: {after_events: 3}}", new StreamCutFault(3)),
                Arguments.of("{stream_cut: {after_events: 0}}", new StreamCutFault(0)),
                Arguments.of("{stream_stall: {after_events: 2, ms: 90000}}", new StreamStallFault(2, 90_000)),
                Arguments.of("{malformed_event: {at: 1}}", new MalformedEventFault(1)),
                Arguments.of("{stream_error: {after_events: 4}}", new StreamErrorFault(4)),
                Arguments.of("{stream_error: {after_events: 3, error: overloaded_error}}",
                        new StreamErrorFault(3, StreamErrorFault.Event.OVERLOADED_ERROR)),
                Arguments.of("{stream_error: {after_events: 3, error: api_error}}",
                        new StreamErrorFault(3, StreamErrorFault.Event.API_ERROR)),
                Arguments.of("{stream_error: {after_events: 5, error: response.failed}}",
                        new StreamErrorFault(5, StreamErrorFault.Event.RESPONSE_FAILED)),
                Arguments.of("{stream_error: {after_events: 2, error: RESOURCE_EXHAUSTED}}",
                        new StreamErrorFault(2, StreamErrorFault.Event.RESOURCE_EXHAUSTED)),
                Arguments.of("{stream_error: {after_events: 2, error: INTERNAL}}",
                        new StreamErrorFault(2, StreamErrorFault.Event.INTERNAL)),
                Arguments.of("{stream_error: {after_events: 2, error: UNAVAILABLE}}",
                        new StreamErrorFault(2, StreamErrorFault.Event.UNAVAILABLE)),
                Arguments.of("{stream_error: {after_events: 4, error: throttlingException}}",
                        new StreamErrorFault(4, StreamErrorFault.Event.THROTTLING_EXCEPTION)),
                Arguments.of("{stream_error: {after_events: 4, error: modelStreamErrorException}}",
                        new StreamErrorFault(4, StreamErrorFault.Event.MODEL_STREAM_ERROR_EXCEPTION)),
                Arguments.of("truncated_tool_call", TruncatedToolCallFault.INSTANCE),
                Arguments.of("{truncated_tool_call: {}}", TruncatedToolCallFault.INSTANCE));
    }

    @ParameterizedTest
    @MethodSource("entries")
    void readsEachForm(String yaml, Fault expected) throws Exception {
        assertEquals(expected, read(yaml));
    }

    @Test
    void unknownBareName() {
        assertEquals("f.yaml:1:1: f: unknown fault 'server-error'; did you mean 'server_error'? The fault kinds are:"
                + " none, timeout, server_error, quota, bad_tool_call, slow_first_token, crash, latency"
                + ", stream_cut, stream_stall, malformed_event, stream_error, truncated_tool_call", error("server-error"));
        assertEquals("f.yaml:1:1: f: unknown fault 'explode'; the fault kinds are: none, timeout, server_error, quota,"
                + " bad_tool_call, slow_first_token, crash, latency"
                + ", stream_cut, stream_stall, malformed_event, stream_error, truncated_tool_call", error("explode"));
    }

    @Test
    void unknownKindWithSettings() {
        assertEquals("f.yaml:1:2: f.slow_first_tokn: unknown fault 'slow_first_tokn'; did you mean 'slow_first_token'?"
                + " The fault kinds are: none, timeout, server_error, quota, bad_tool_call, slow_first_token, crash, latency"
                + ", stream_cut, stream_stall, malformed_event, stream_error, truncated_tool_call", error("{slow_first_tokn: {elapsed_ms: 1}}"));
    }

    @Test
    void settingsAreChecked() {
        assertEquals("f.yaml:1:25: f.server_error.status: expected a 5xx status from 500 to 599, got the number 600",
                error("{server_error: {status: 600}}"));
        assertEquals("f.yaml:1:25: f.server_error.status: expected a 5xx status from 500 to 599, got the text '503'",
                error("{server_error: {status: '503'}}"));
        assertEquals("f.yaml:1:10: f.quota.retry: unknown key 'retry'; the keys allowed here are: retry_after",
                error("{quota: {retry: 2}}"));
        assertEquals("f.yaml:1:20: f.slow_first_token.elapsed_ms: missing required key 'elapsed_ms': how late the first token"
                + " arrives, in milliseconds: write {slow_first_token: {elapsed_ms: 3500}}",
                error("{slow_first_token: {}}"));
        assertEquals("f.yaml:1:33: f.slow_first_token.elapsed_ms: expected an integer of at least 0, got -1",
                error("{slow_first_token: {elapsed_ms: -1}}"));
        assertEquals("f.yaml:1:12: f.timeout.after: the fault timeout takes no settings; write it bare: timeout",
                error("{timeout: {after: 1}}"));
        assertEquals("f.yaml:1:8: f.quota: expected a mapping of quota settings (retry_after), got nothing (null);"
                + " write {} for an empty mapping", error("{quota: }"));
    }

    @Test
    void latencyIsDrawnFromTheRecordedSamples() throws Exception {
        assertEquals(dev.resilienceharness.fault.RecordedLatencyFault.INSTANCE, read("{latency: recorded}"));
        assertEquals("f.yaml:1:1: f: the fault latency needs settings: write {latency: recorded}", error("latency"));
        assertEquals("f.yaml:1:11: f.latency: expected one of recorded, got the text 'p95'", error("{latency: p95}"));
    }

    @Test
    void oneFaultPerEntry() {
        assertEquals("f.yaml:1:1: f: expected a fault written as one key with its settings, such as {quota:"
                + " {retry_after: \"2\"}}, got a mapping with 2 keys; put each fault in its own list entry",
                error("{timeout: {}, crash: {}}"));
    }

    @Test
    void otherShapesAreRefused() {
        assertEquals("f.yaml:1:1: f: expected a fault: one of none, timeout, server_error, quota, bad_tool_call,"
                + " slow_first_token, crash, latency, stream_cut, stream_stall, malformed_event, stream_error,"
                + " truncated_tool_call, or a kind with settings such as {quota: {retry_after: \"2\"}}, got the"
                + " number 3", error("3"));
    }

    @Test
    void streamFaultCountsAreWholeNumbersOfAtLeastZero() {
        assertEquals("f.yaml:1:29: f.stream_cut.after_events: expected an integer of at least 0, got -1",
                error("{stream_cut: {after_events: -1}}"));
        assertEquals("f.yaml:1:29: f.stream_cut.after_events: expected an integer of at least 0, got the text 'three'",
                error("{stream_cut: {after_events: three}}"));
        assertEquals("f.yaml:1:29: f.stream_cut.after_events: expected an integer of at least 0, got the number 1.5",
                error("{stream_cut: {after_events: 1.5}}"));
        assertEquals("f.yaml:1:38: f.stream_stall.ms: expected an integer of at least 0, got -5",
                error("{stream_stall: {after_events: 2, ms: -5}}"));
        assertEquals("f.yaml:1:24: f.malformed_event.at: expected an integer of at least 0, got the text '2'",
                error("{malformed_event: {at: '2'}}"));
        assertEquals("f.yaml:1:31: f.stream_error.after_events: expected an integer of at least 0, got -3",
                error("{stream_error: {after_events: -3}}"));
    }

    @Test
    void streamFaultsNeedTheirSettings() {
        assertEquals("f.yaml:1:1: f: the fault stream_cut needs settings: write {stream_cut: {after_events: 3}}",
                error("stream_cut"));
        assertEquals("f.yaml:1:14: f.stream_cut.after_events: missing required key 'after_events': how many events"
                + " arrive before it: write {stream_cut: {after_events: 3}}", error("{stream_cut: {}}"));
        assertEquals("f.yaml:1:16: f.stream_stall.ms: missing required key 'ms': how long nothing arrives, in"
                + " milliseconds: write {stream_stall: {after_events: 2, ms: 90000}}",
                error("{stream_stall: {after_events: 2}}"));
        assertEquals("f.yaml:1:15: f.stream_cut.after: unknown key 'after'; the keys allowed here are: after_events",
                error("{stream_cut: {after: 3}}"));
        assertEquals("f.yaml:1:17: f.stream_error.at: unknown key 'at'; the keys allowed here are: after_events, error",
                error("{stream_error: {at: 3}}"));
        assertEquals("f.yaml:1:24: f.truncated_tool_call.at: the fault truncated_tool_call takes no settings; write"
                + " it bare: truncated_tool_call", error("{truncated_tool_call: {at: 1}}"));
    }

    @Test
    void aStreamErrorNamesOneOfTheProvidersErrorEvents() {
        assertEquals("f.yaml:1:41: f.stream_error.error: expected one of overloaded_error, api_error, response.failed,"
                + " RESOURCE_EXHAUSTED, INTERNAL, UNAVAILABLE, throttlingException, modelStreamErrorException, got the"
                + " text 'resource_exhausted'; did you mean 'RESOURCE_EXHAUSTED'?",
                error("{stream_error: {after_events: 3, error: resource_exhausted}}"));
        assertEquals("f.yaml:1:41: f.stream_error.error: expected one of overloaded_error, api_error, response.failed,"
                + " RESOURCE_EXHAUSTED, INTERNAL, UNAVAILABLE, throttlingException, modelStreamErrorException, got the"
                + " text 'overloaded'", error("{stream_error: {after_events: 3, error: overloaded}}"));
        assertEquals("f.yaml:1:41: f.stream_error.error: expected one of overloaded_error, api_error, response.failed,"
                + " RESOURCE_EXHAUSTED, INTERNAL, UNAVAILABLE, throttlingException, modelStreamErrorException, got the"
                + " text 'api_eror'; did you mean 'api_error'?",
                error("{stream_error: {after_events: 3, error: api_eror}}"));
        assertEquals("f.yaml:1:41: f.stream_error.error: expected one of overloaded_error, api_error, response.failed,"
                + " RESOURCE_EXHAUSTED, INTERNAL, UNAVAILABLE, throttlingException, modelStreamErrorException, got the"
                + " number 529", error("{stream_error: {after_events: 3, error: 529}}"));
    }
}
