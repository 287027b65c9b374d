package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.Reply;
import org.apiguardian.api.API;

/**
 * One entry of a scenario's {@code faults} list: what the provider does to the transport call it hits
 * (docs faults.md). The set is closed; each kind is one record.
 */
@API(status = INTERNAL, since = "0.1.0")
public sealed interface Fault
        permits NoFault, TimeoutFault, ServerErrorFault, QuotaFault, BadToolCallFault, SlowFirstTokenFault,
        CrashFault, RecordedLatencyFault,
        StreamFault {

    /** The fault's name in {@code resilience.yaml}. */
    String kind();

    /** The fault as it is written in {@code resilience.yaml}: a bare name or a one-key mapping. */
    Object toYaml();

    /**
     * The failure this fault answers a call for {@code op} with, made but not thrown, or {@code null} when the call
     * gets a reply ({@link #strike} gives it). When this is not {@code null}, {@link #strike} throws it: the harness's
     * transport asks for it first, so that a loop taking failures as values ({@code Transport.send}) meets no throw.
     */
    default CallFailure failure(String op) {
        return null;
    }

    /**
     * Applies this fault to a call for {@code op} whose recorded answer is {@code recorded}. By default the call
     * fails with {@link #failure}, or gets the recorded answer as it is.
     *
     * @return the reply the loop receives
     * @throws CallFailure the failure the loop receives instead
     */
    default Reply strike(String op, Reply recorded) throws CallFailure {
        CallFailure failure = failure(op);
        if (failure != null) {
            throw failure;
        }
        return recorded;
    }

    /** The yaml names of every fault kind, in the order docs faults.md lists them. */
    static java.util.List<String> kinds() {
        return java.util.List.of("none", "timeout", "server_error", "quota", "bad_tool_call", "slow_first_token",
                "crash", "latency",
                "stream_cut", "stream_stall", "malformed_event", "stream_error", "truncated_tool_call");
    }
}
