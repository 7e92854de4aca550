/**
 * Step zero of the pipeline: which MCP server a request is for, resolved once from the
 * policy snapshot live when it arrived and pinned on the request for every later stage.
 */
@NullMarked
package io.github.mcpgateway.routing;

import org.jspecify.annotations.NullMarked;
