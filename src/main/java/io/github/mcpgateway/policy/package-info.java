/**
 * The live policy file: MCP servers, their routes and the grants that decide who may call
 * which tool.
 */
@NullMarked
package io.github.mcpgateway.policy;

import org.jspecify.annotations.NullMarked;
