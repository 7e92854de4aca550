/**
 * Errors the gateway itself answers on an MCP path, as values, and the one place that
 * renders them.
 */
@NullMarked
package io.github.mcpgateway.error;

import org.jspecify.annotations.NullMarked;
