/**
 * The grant stage of the pipeline, below the policy model it applies: {@code PolicyStage}
 * orchestrates four strategies, one job each: {@code RequestGrants} (the server and the
 * item a request names, through {@code policy.GrantEvaluator}, the caller's condition
 * time charged), {@code SubscriptionGrants} (the resources a 2026-07-28
 * {@code subscriptions/listen} subscribes to), {@code ParamHeaderCheck} (a stateless
 * call's {@code Mcp-Param-*} headers against the {@code x-mcp-header} annotations in
 * {@code ToolHeaderAnnotations}) and {@code ListFilters} (the {@code tools/list},
 * {@code prompts/list}, {@code resources/list} and {@code resources/templates/list}
 * replies, and resumed streams, filtered to what the caller may use). {@code GrantErrors}
 * is the one mapping from a grant refusal to its error, shared with {@code explain} and
 * {@code validate}; {@code ConditionErrors} counts failed conditions. The model
 * ({@code policy}, {@code policy.condition}) knows nothing of this package or of the
 * request.
 */
@NullMarked
package io.github.mcpgateway.grant;

import org.jspecify.annotations.NullMarked;
