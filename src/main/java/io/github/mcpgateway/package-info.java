/**
 * Governed MCP gateway. Each sub-package is one capability of the request pipeline, in
 * pipeline order: {@code identity}, {@code request}, {@code session} and
 * {@code revocation}, {@code policy}, {@code idempotency}, {@code proxy}; {@code audit}
 * observes them all; {@code jsonrpc} and {@code error} are the shared vocabulary of MCP
 * messages and gateway errors; {@code config} wires the filter chain; {@code demo} is the
 * newcomer's profile.
 */
@NullMarked
package io.github.mcpgateway;

import org.jspecify.annotations.NullMarked;
