/**
 * The demo profile: an embedded MCP server built with the official SDK and a
 * loopback-only token issuer.
 */
@NullMarked
package io.github.mcpgateway.demo;

import org.jspecify.annotations.NullMarked;
