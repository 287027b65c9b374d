/**
 * Recording MCP sessions from real servers (docs recording.md): the stdio and Streamable HTTP connections a recording
 * run opens to the servers of {@code mcp_servers:}, and the {@link dev.resilienceharness.mcp.McpLive} that sends them
 * what no MCP cassette answers and writes each session, redacted, when the recording ends.
 */
package dev.resilienceharness.mcp.live;
