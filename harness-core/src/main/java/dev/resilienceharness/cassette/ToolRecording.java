package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.Fingerprint;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The recorded result of one logical call of a {@code replay: recorded} tool (docs cassettes.md): the file
 * {@code <cassettes>/tools/<fingerprint>.json} that answers every execution of the tool with these arguments.
 *
 * @param file        the file it was read from or written to
 * @param fingerprint the fingerprint of {@code {"tool": tool, "arguments": arguments}}: the file's name without
 *                    {@code .json}
 * @param tool        the tool's name, as the model sees it
 * @param arguments   the arguments, as parsed JSON, or a JSON string holding arguments that are not JSON
 * @param result      the tool's result, the text that goes back to the model
 * @param recordedAt  when it was recorded, to the second, or {@code null}
 */
@API(status = INTERNAL, since = "0.1.0")
public record ToolRecording(Path file, String fingerprint, String tool, JsonNode arguments, String result,
        Instant recordedAt) {

    public ToolRecording {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(result, "result");
    }

    /**
     * The fingerprint of a logical tool call: of {@code {"tool": tool, "arguments": arguments}} in canonical form, so
     * that the same arguments in another key order or spacing are the same call.
     *
     * @param arguments the parsed arguments, or a JSON string holding arguments that are not JSON
     */
    public static String fingerprint(String tool, JsonNode arguments) {
        return Fingerprint.of(logicalCall(tool, arguments));
    }

    /** {@code {"tool": tool, "arguments": arguments}}: what a recording's fingerprint is taken of. */
    static ObjectNode logicalCall(String tool, JsonNode arguments) {
        ObjectNode logical = JsonNodeFactory.instance.objectNode().put("tool", tool);
        logical.set("arguments", arguments);
        return logical;
    }
}
