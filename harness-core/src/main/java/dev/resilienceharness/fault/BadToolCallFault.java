package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.BadToolCall;
import org.apiguardian.api.API;

/** {@code bad_tool_call}: the call returns, but its tool-call JSON fails the schema. */
@API(status = INTERNAL, since = "0.1.0")
public record BadToolCallFault() implements Fault {

    public static final BadToolCallFault INSTANCE = new BadToolCallFault();

    @Override
    public String kind() {
        return "bad_tool_call";
    }

    @Override
    public Object toYaml() {
        return kind();
    }

    @Override
    public BadToolCall failure(String op) {
        return new BadToolCall("injected bad_tool_call for op '" + op + "'");
    }
}
