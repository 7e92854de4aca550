/**
 * MCP servers that speak stdio (ADR 0023), run by the gateway as child processes, one per
 * client session. {@code StdioTransport} serves the Streamable HTTP transport over them
 * in the gateway's own process: the proxy sends a stdio server's requests to it instead
 * of to a socket, so that every stage treats the server as an HTTP one.
 * {@code StdioSessions} admits a session within the caps, finds it, and ends it;
 * {@code StdioSession} holds its process, the requests waiting for responses and the
 * queue of the process's own messages for the {@code GET} stream.
 *
 * <p>
 * The process layer: {@code StdioProcess} starts one {@code StdioCommand} (an argument
 * list, never a shell string; a working directory; an environment that holds only what
 * the command names), frames its stdout as newline-delimited JSON-RPC messages
 * ({@code LineFramer}, bounded), writes messages to its stdin, sends its stderr to the
 * log, bounded ({@code StderrLog}), and ends it: on request (stdin closed, then SIGTERM,
 * then SIGKILL, the process and its descendants) or because its stdout broke the framing.
 * Every end reaches the {@code StdioListener} once, as a {@code StdioEnd}.
 *
 * <p>
 * The framing follows the MCP stdio transport (2025-06-18 and 2026-07-28): messages are
 * delimited by newlines and contain none; the server writes nothing to stdout that is not
 * an MCP message. A line that is not one JSON object, or that is longer than
 * {@code StdioLimits#maxLineBytes()}, ends the process: its stdout is not trusted beyond
 * the framing.
 */
@NullMarked
package io.github.mcpgateway.stdio;

import org.jspecify.annotations.NullMarked;
