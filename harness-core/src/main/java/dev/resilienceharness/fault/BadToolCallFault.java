package dev.resilienceharness.fault;

import dev.resilienceharness.transport.BadToolCall;

/** {@code bad_tool_call}: the call returns, but its tool-call JSON fails the schema. */
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
