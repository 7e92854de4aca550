/**
 * JSON-RPC 2.0 messages as MCP uses them: parsing a client request once, and rendering
 * responses.
 */
@NullMarked
package io.github.mcpgateway.jsonrpc;

import org.jspecify.annotations.NullMarked;
