package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request of a repair call after a schema-broken tool call: the op's request with the policy's stricter
 * instruction ({@code schema.repair_instruction}) appended to its {@code messages} as a user message (the list is
 * created when the request has none), plus the marker {@code "repair": n} by which the harness knows a repair call.
 * The provider is sent the request without the marker ({@link #sent}), and that is what a repair's own cassette
 * records; without an instruction the repair sends the op's request again and is answered from the op's cassette.
 */
@API(status = STABLE, since = "0.1.0")
public final class RepairRequest {

    /** The key of the repair marker. */
    public static final String MARKER = "repair";

    private RepairRequest() {
    }

    /**
     * The payload of the {@code n}-th repair call for {@code request}, which is not changed.
     *
     * @param instruction the stricter instruction to append, or {@code null} for none
     */
    public static ObjectNode payload(ObjectNode request, int n, String instruction) {
        ObjectNode payload = withInstruction(request, instruction);
        payload.put(MARKER, n);
        return payload;
    }

    /** What goes to the provider for {@code payload}: a copy without the repair marker. */
    public static ObjectNode sent(ObjectNode payload) {
        ObjectNode sent = payload.deepCopy();
        sent.remove(MARKER);
        return sent;
    }

    /** A copy of {@code request} with {@code instruction} appended to its messages; a plain copy for none. */
    public static ObjectNode withInstruction(ObjectNode request, String instruction) {
        ObjectNode copy = request.deepCopy();
        if (instruction != null) {
            JsonNode messages = copy.get("messages");
            ArrayNode list = messages instanceof ArrayNode a ? a : messages == null ? copy.putArray("messages") : null;
            if (list != null) {
                list.addObject().put("role", "user").put("content", instruction);
            }
        }
        return copy;
    }

    /**
     * The op's request a repair request was made from: {@code sent} without a last message carrying
     * {@code instruction} (and without {@code messages} when that leaves it empty), or {@code sent} itself when it
     * ends with no such message.
     */
    public static ObjectNode original(ObjectNode sent, String instruction) {
        if (instruction == null || !(sent.get("messages") instanceof ArrayNode messages) || messages.isEmpty()) {
            return sent;
        }
        JsonNode last = messages.get(messages.size() - 1);
        if (!last.path("role").asString("").equals("user") || !last.path("content").asString("").equals(instruction)) {
            return sent;
        }
        ObjectNode copy = sent.deepCopy();
        ArrayNode list = (ArrayNode) copy.get("messages");
        list.remove(list.size() - 1);
        if (list.isEmpty()) {
            // A list holding only the instruction was made for it: the op's request had none.
            copy.remove("messages");
        }
        return copy;
    }
}
