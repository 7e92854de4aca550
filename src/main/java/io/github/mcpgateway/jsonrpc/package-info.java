/**
 * JSON-RPC 2.0 messages as MCP uses them: a client's message parsed once
 * ({@code JsonRpcMessageParser} over the {@code StrictJsonReader}, bounded by
 * {@code JsonReadLimits}) into a {@code JsonRpcMessage}, and one member removed from or
 * inserted into a message's bytes, every other byte kept ({@code JsonMembers}). Rendering
 * the gateway's answers is {@code error}'s. A ground package: of the gateway it uses only
 * {@code error}.
 */
@NullMarked
package io.github.mcpgateway.jsonrpc;

import org.jspecify.annotations.NullMarked;
