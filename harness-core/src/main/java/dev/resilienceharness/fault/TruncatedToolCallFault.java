package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.BadToolCall;
import org.apiguardian.api.API;

/**
 * {@code truncated_tool_call}: the streamed tool-call arguments stop mid-JSON, then the stream ends normally with
 * {@code [DONE]}: a complete-looking answer whose tool call breaks its schema.
 */
@API(status = INTERNAL, since = "0.1.0")
public record TruncatedToolCallFault() implements StreamFault {

    public static final TruncatedToolCallFault INSTANCE = new TruncatedToolCallFault();

    @Override
    public String kind() {
        return "truncated_tool_call";
    }

    @Override
    public int afterEvents() {
        return -1;
    }

    @Override
    public Object toYaml() {
        return kind();
    }

    @Override
    public BadToolCall failure(String op) {
        return new BadToolCall("the streamed tool-call arguments stop mid-JSON (injected truncated_tool_call fault)");
    }
}
