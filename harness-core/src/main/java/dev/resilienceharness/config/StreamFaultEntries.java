package dev.resilienceharness.config;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.MalformedEventFault;
import dev.resilienceharness.fault.StreamCutFault;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.fault.StreamStallFault;
import java.util.List;

/**
 * The settings of the stream faults in a {@code faults:} list: {@code {stream_cut: {after_events: 3}}},
 * {@code {stream_stall: {after_events: 2, ms: 90000}}}, {@code {malformed_event: {at: 2}}} and
 * {@code {stream_error: {after_events: 4}}} (with {@code error:} one of {@code overloaded_error}, {@code api_error},
 * {@code response.failed}, {@code RESOURCE_EXHAUSTED}, {@code INTERNAL}, {@code UNAVAILABLE},
 * {@code throttlingException}, {@code modelStreamErrorException} to name the provider's
 * error event), every count a whole number of at least 0.
 */
final class StreamFaultEntries {

    private StreamFaultEntries() {
    }

    /** The settings {@code kind} takes, in the order they are written. */
    static List<String> keys(String kind) {
        return switch (kind) {
            case "stream_stall" -> List.of("after_events", "ms");
            case "malformed_event" -> List.of("at");
            case "stream_error" -> List.of("after_events", "error");
            default -> List.of("after_events");
        };
    }

    /** How {@code kind} is written with its settings. */
    static String example(String kind) {
        return switch (kind) {
            case "stream_stall" -> "{stream_stall: {after_events: 2, ms: 90000}}";
            case "malformed_event" -> "{malformed_event: {at: 2}}";
            case "stream_error" -> "{stream_error: {after_events: 4}}";
            default -> "{stream_cut: {after_events: 3}}";
        };
    }

    /** The fault {@code kind} with the settings at {@code kindPath}. */
    static Fault read(NodeReader r, YamlNode.Mapping settings, String kind, String kindPath) throws ConfigException {
        if ("malformed_event".equals(kind)) {
            return new MalformedEventFault(count(r, settings, kindPath, "at",
                    "the index of the malformed event, counted from 0", kind));
        }
        int after = count(r, settings, kindPath, "after_events", "how many events arrive before it", kind);
        return switch (kind) {
            case "stream_stall" -> {
                YamlNode ms = r.require(settings, kindPath, "ms",
                        "how long nothing arrives, in milliseconds: write " + example(kind));
                yield new StreamStallFault(after, r.integer(ms, NodeReader.child(kindPath, "ms"), 0));
            }
            case "stream_error" -> {
                YamlNode error = settings.get("error");
                yield new StreamErrorFault(after, error == null ? null : StreamErrorFault.Event.of(
                        r.oneOf(error, NodeReader.child(kindPath, "error"), StreamErrorFault.Event.yamlNames())));
            }
            default -> new StreamCutFault(after);
        };
    }

    private static int count(NodeReader r, YamlNode.Mapping settings, String kindPath, String key, String what,
            String kind) throws ConfigException {
        YamlNode value = r.require(settings, kindPath, key, what + ": write " + example(kind));
        return r.integer(value, NodeReader.child(kindPath, key), 0);
    }
}
