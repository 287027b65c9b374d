package dev.resilienceharness.fault;

import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.Reply;

/**
 * One entry of a scenario's {@code faults} list: what the provider does to the transport call it hits
 * (SPEC section 5). The set is closed; each kind is one record.
 */
public sealed interface Fault
        permits NoFault, TimeoutFault, ServerErrorFault, QuotaFault, BadToolCallFault, SlowFirstTokenFault,
        CrashFault, RecordedLatencyFault,
        StreamFault {

    /** The fault's name in {@code resilience.yaml}. */
    String kind();

    /** The fault as it is written in {@code resilience.yaml}: a bare name or a one-key mapping. */
    Object toYaml();

    /**
     * Applies this fault to a call for {@code op} whose recorded answer is {@code recorded}.
     *
     * @return the reply the loop receives
     * @throws CallFailure the failure the loop receives instead
     */
    Reply strike(String op, Reply recorded) throws CallFailure;

    /** The yaml names of every fault kind, in the order the SPEC lists them. */
    static java.util.List<String> kinds() {
        return java.util.List.of("none", "timeout", "server_error", "quota", "bad_tool_call", "slow_first_token",
                "crash", "latency",
                "stream_cut", "stream_stall", "malformed_event", "stream_error", "truncated_tool_call");
    }
}
