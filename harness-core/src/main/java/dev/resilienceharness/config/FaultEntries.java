package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.RecordedLatencyFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.fault.TruncatedToolCallFault;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Reads one entry of a scenario's {@code faults:} list (docs faults.md): a bare kind ({@code timeout},
 * {@code quota}) or a one-key mapping of a kind to its settings ({@code {server_error: {status: 500}}},
 * {@code {quota: {retry_after: "2"}}}, {@code {slow_first_token: {elapsed_ms: 3500}}}).
 */
@API(status = INTERNAL, since = "0.1.0")
public final class FaultEntries {

    private static final String SLOW_EXAMPLE = "{slow_first_token: {elapsed_ms: 3500}}";
    private static final String LATENCY_EXAMPLE = "{latency: recorded}";

    private FaultEntries() {
    }

    /** The fault the entry at {@code path} stands for. */
    public static Fault read(NodeReader r, YamlNode node, String path) throws ConfigException {
        if (node instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING) {
            return bare(r, s, path);
        }
        if (node instanceof YamlNode.Mapping m) {
            if (m.entries().size() != 1) {
                throw r.error(node, path, ConfigMessages.faultMappingSize(m.entries().size()));
            }
            return withSettings(r, m.entries().get(0), path);
        }
        throw r.error(node, path, ConfigMessages.expected(
                "a fault: one of " + String.join(", ", Fault.kinds()) + ", or a kind with settings such as"
                        + " {quota: {retry_after: \"2\"}}",
                node.describe()));
    }

    private static Fault bare(NodeReader r, YamlNode.Scalar s, String path) throws ConfigException {
        return switch (s.text()) {
            case "none" -> NoFault.INSTANCE;
            case "timeout" -> TimeoutFault.INSTANCE;
            case "server_error" -> new ServerErrorFault(ServerErrorFault.DEFAULT_STATUS);
            case "quota" -> new QuotaFault(null);
            case "bad_tool_call" -> BadToolCallFault.INSTANCE;
            case "crash" -> CrashFault.INSTANCE;
            case "slow_first_token" ->
                throw r.error(s, path, ConfigMessages.faultNeedsSettings("slow_first_token", SLOW_EXAMPLE));
            case "latency" -> throw r.error(s, path, ConfigMessages.faultNeedsSettings("latency", LATENCY_EXAMPLE));
            case "truncated_tool_call" -> TruncatedToolCallFault.INSTANCE;
            case "stream_cut", "stream_stall", "malformed_event", "stream_error" ->
                throw r.error(s, path, ConfigMessages.faultNeedsSettings(s.text(), StreamFaultEntries.example(s.text())));
            default -> throw r.error(s, path, unknown(s.text()));
        };
    }

    private static Fault withSettings(NodeReader r, YamlNode.Entry entry, String path) throws ConfigException {
        String kind = entry.key();
        String kindPath = NodeReader.child(path, kind);
        if (!Fault.kinds().contains(kind)) {
            throw r.error(entry, kindPath, unknown(kind));
        }
        if (kind.equals("latency")) {
            return latency(r, entry.value(), kindPath);
        }
        List<String> keys = switch (kind) {
            case "server_error" -> List.of("status");
            case "quota" -> List.of("retry_after");
            case "slow_first_token" -> List.of("elapsed_ms");
            case "stream_cut", "stream_stall", "malformed_event", "stream_error" -> StreamFaultEntries.keys(kind);
            default -> List.of();
        };
        if (keys.isEmpty() && entry.value() instanceof YamlNode.Mapping m && !m.entries().isEmpty()) {
            YamlNode.Entry setting = m.entries().get(0);
            throw r.error(setting, NodeReader.child(kindPath, setting.key()), ConfigMessages.faultTakesNoSettings(kind));
        }
        String what = keys.isEmpty() ? "an empty mapping: " + kind + " takes no settings"
                : "a mapping of " + kind + " settings (" + String.join(", ", keys) + ")";
        YamlNode.Mapping settings = r.mapping(entry.value(), kindPath, what, keys);
        switch (kind) {
            case "server_error": {
                YamlNode status = settings.get("status");
                if (status == null) {
                    return new ServerErrorFault(ServerErrorFault.DEFAULT_STATUS);
                }
                String statusPath = NodeReader.child(kindPath, "status");
                String range = "a 5xx status from 500 to 599";
                if (!(status instanceof YamlNode.Scalar sc) || sc.type() != YamlNode.ScalarType.INTEGER
                        || sc.text().startsWith("-")) {
                    throw r.error(status, statusPath, ConfigMessages.expected(range, status.describe()));
                }
                int code = r.integer(status, statusPath, 0);
                if (code < 500 || code > 599) {
                    throw r.error(status, statusPath,
                            ConfigMessages.expected(range, status.describe()));
                }
                return new ServerErrorFault(code);
            }
            case "quota": {
                YamlNode retryAfter = settings.get("retry_after");
                return new QuotaFault(retryAfter == null ? null
                        : r.sourceText(retryAfter, NodeReader.child(kindPath, "retry_after"),
                                "the Retry-After header text: seconds such as \"2\" or \"1.5\", or an HTTP-date"));
            }
            case "slow_first_token": {
                YamlNode elapsed = r.require(settings, kindPath, "elapsed_ms",
                        "how late the first token arrives, in milliseconds: write " + SLOW_EXAMPLE);
                return new SlowFirstTokenFault(r.integer(elapsed, NodeReader.child(kindPath, "elapsed_ms"), 0));
            }
            case "stream_cut", "stream_stall", "malformed_event", "stream_error":
                return StreamFaultEntries.read(r, settings, kind, kindPath);
            case "truncated_tool_call":
                return TruncatedToolCallFault.INSTANCE;
            case "none":
                return NoFault.INSTANCE;
            case "timeout":
                return TimeoutFault.INSTANCE;
            case "bad_tool_call":
                return BadToolCallFault.INSTANCE;
            default:
                return CrashFault.INSTANCE;
        }
    }

    /** {@code {latency: recorded}}, the only latency there is to draw from. */
    private static Fault latency(NodeReader r, YamlNode value, String path) throws ConfigException {
        r.oneOf(value, path, java.util.List.of("recorded"));
        return RecordedLatencyFault.INSTANCE;
    }

    private static String unknown(String name) {
        return ConfigMessages.unknownFault(name, DidYouMean.suggest(name, Fault.kinds()), Fault.kinds());
    }
}
