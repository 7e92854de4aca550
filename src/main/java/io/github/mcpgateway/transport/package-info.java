/**
 * MCP Streamable HTTP as the gateway relays it: the header names it reads, the revisions,
 * the media types it relays as streams, the proxy's extension points a stage records on
 * the request context ({@code ReplyTap}, {@code UpstreamCall}), and the reply reading the
 * stages share ({@code FilteredResponse}, {@code SseMessageStream},
 * {@code MessageFilter}, {@code ListResultFilter}). A ground package: of the gateway it
 * uses only {@code jsonrpc}.
 */
@NullMarked
package io.github.mcpgateway.transport;

import org.jspecify.annotations.NullMarked;
