/**
 * The MCP Java SDK adapter: {@link dev.resilienceharness.mcpclient.HarnessMcp} gives a test a real
 * {@code McpSyncClient} or {@code McpAsyncClient} whose transport is one scenario run's MCP server.
 */
package dev.resilienceharness.mcpclient;
