/**
 * Governed MCP gateway. Each sub-package is one capability of the request pipeline:
 * {@code identity}, {@code request}, {@code policy}, {@code proxy}, {@code audit}, with
 * {@code jsonrpc} and {@code error} as the shared vocabulary of MCP messages and gateway
 * errors.
 */
@NullMarked
package io.github.mcpgateway;

import org.jspecify.annotations.NullMarked;
