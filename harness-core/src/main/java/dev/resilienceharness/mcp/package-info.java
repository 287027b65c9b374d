/**
 * MCP cassettes (docs mcp.md): one file per recorded session of an MCP tool server, its reader, its writer, and the
 * replay that answers a client's JSON-RPC requests from them by method and canonical params.
 */
package dev.resilienceharness.mcp;
