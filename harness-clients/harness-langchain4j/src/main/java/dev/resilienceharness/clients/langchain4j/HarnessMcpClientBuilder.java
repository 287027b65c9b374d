package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.transport.McpTransport;
import dev.resilienceharness.mcp.McpEndpoint;
import java.time.Duration;

/**
 * langchain4j-mcp's own {@link DefaultMcpClient.Builder}, whose transport is the run's MCP server: it notes the
 * timeouts a team sets so that the run's faults run out the waits this client would make, and builds the client with
 * its auto health check off, because that check pings on the wall clock.
 */
final class HarnessMcpClientBuilder extends DefaultMcpClient.Builder {

    private final McpEndpoint endpoint;
    private Duration initialization = McpClientTimeouts.DEFAULTS.initialization();
    private Duration toolExecution = McpClientTimeouts.DEFAULTS.toolExecution();
    private Duration resources = McpClientTimeouts.DEFAULTS.resources();
    private Duration prompts = McpClientTimeouts.DEFAULTS.prompts();
    private Duration ping = McpClientTimeouts.DEFAULTS.ping();
    private String timeoutText = McpClientTimeouts.DEFAULTS.timeoutText();
    private boolean healthCheck;

    HarnessMcpClientBuilder(McpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** Ignored: the run's MCP server is this client's transport. */
    @Override
    public DefaultMcpClient.Builder transport(McpTransport transport) {
        return this;
    }

    @Override
    public DefaultMcpClient.Builder initializationTimeout(Duration timeout) {
        initialization = orDefault(timeout, McpClientTimeouts.DEFAULTS.initialization());
        return super.initializationTimeout(timeout);
    }

    @Override
    public DefaultMcpClient.Builder toolExecutionTimeout(Duration timeout) {
        toolExecution = orDefault(timeout, McpClientTimeouts.DEFAULTS.toolExecution());
        return super.toolExecutionTimeout(timeout);
    }

    @Override
    public DefaultMcpClient.Builder resourcesTimeout(Duration timeout) {
        resources = orDefault(timeout, McpClientTimeouts.DEFAULTS.resources());
        return super.resourcesTimeout(timeout);
    }

    @Override
    public DefaultMcpClient.Builder promptsTimeout(Duration timeout) {
        prompts = orDefault(timeout, McpClientTimeouts.DEFAULTS.prompts());
        return super.promptsTimeout(timeout);
    }

    @Override
    public DefaultMcpClient.Builder pingTimeout(Duration timeout) {
        ping = orDefault(timeout, McpClientTimeouts.DEFAULTS.ping());
        return super.pingTimeout(timeout);
    }

    @Override
    public DefaultMcpClient.Builder toolExecutionTimeoutErrorMessage(String text) {
        timeoutText = text == null ? McpClientTimeouts.DEFAULTS.timeoutText() : text;
        return super.toolExecutionTimeoutErrorMessage(text);
    }

    /** Kept off unless turned on here: the check pings every {@code autoHealthCheckInterval} of real time. */
    @Override
    public DefaultMcpClient.Builder autoHealthCheck(boolean autoHealthCheck) {
        healthCheck = autoHealthCheck;
        return this;
    }

    @Override
    public DefaultMcpClient build() {
        super.transport(new HarnessMcpTransport(endpoint, timeouts()));
        super.autoHealthCheck(healthCheck);
        return super.build();
    }

    McpClientTimeouts timeouts() {
        return new McpClientTimeouts(initialization, toolExecution, resources, prompts, ping, timeoutText);
    }

    private static Duration orDefault(Duration value, Duration otherwise) {
        return value == null ? otherwise : value;
    }
}
