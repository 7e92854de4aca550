/**
 * The typed context of one MCP request: resolved server, body read once, parsed JSON-RPC
 * message.
 */
@NullMarked
package io.github.mcpgateway.request;

import org.jspecify.annotations.NullMarked;
