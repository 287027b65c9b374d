package dev.resilienceharness.mcpclient;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.MemoryJournal;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.tool.ToolBody;
import dev.resilienceharness.tool.ToolCall;
import dev.resilienceharness.transport.Reply;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A loop run whose HTTP endpoint knows one MCP server, billing (a {@link ScriptedEndpoint}), and runs a tool gated
 * through it as it is: what a run the harness makes offers an adapter, minus the cassettes and faults.
 */
final class ScriptedRun implements HttpEndpoint {

    final ScriptedEndpoint billing = new ScriptedEndpoint();
    /** Each {@code run.mcp} asked, as "server as layer". */
    final List<String> asked = Collections.synchronizedList(new ArrayList<>());
    /** Each tool run through the gate, by name. */
    final List<String> tools = Collections.synchronizedList(new ArrayList<>());
    final LoopRun run = LoopRun.ofTemplates(List.of("resolve"), op -> JsonNodeFactory.instance.objectNode(),
            payload -> Reply.of(payload), Policy.defaults(Duration.ofSeconds(30)), new VirtualClock(),
            new MemoryJournal(), this);

    @Override
    public HttpAnswer exchange(HttpAttempt attempt) {
        throw new UnsupportedOperationException("no model calls here");
    }

    @Override
    public InputStream body(HttpAnswer.Response response, Duration readTimeout) {
        throw new UnsupportedOperationException("no model calls here");
    }

    @Override
    public Clock clock() {
        throw new UnsupportedOperationException("no clock here");
    }

    @Override
    public void sleep(Duration duration, String sdk) {
        throw new UnsupportedOperationException("nothing sleeps here");
    }

    @Override
    public Scope op(String op) {
        return () -> { };
    }

    @Override
    public String tool(ToolCall call, ToolBody body) throws Exception {
        tools.add(call.name());
        return body.run();
    }

    @Override
    public McpEndpoint mcp(String server, String layer) {
        asked.add(server + " as " + layer);
        if (!server.equals("billing")) {
            throw new IllegalArgumentException("no MCP server '" + server + "' is declared");
        }
        return billing;
    }
}
