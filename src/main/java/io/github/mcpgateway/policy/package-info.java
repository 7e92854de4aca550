/**
 * The policy model: the live policy file (MCP servers, their routes, limits, upstream
 * authentication and the grants that decide who may use which tool, prompt and resource),
 * its parser and reloader, the live snapshot, health, meters and {@code GrantEvaluator},
 * which decides a grant for a principal and item as a value ({@code GrantDecision}).
 * Below every stage: it depends on no stage and not on {@code request} (an
 * {@code ArchitectureTest} rule); the grant stage that applies it to a request is the
 * {@code grant} package.
 */
@NullMarked
package io.github.mcpgateway.policy;

import org.jspecify.annotations.NullMarked;
