/**
 * The grant stage of the pipeline: the filter that applies the policy model to a request
 * and filters {@code tools/list} replies to the tools the caller may call.
 */
@NullMarked
package io.github.mcpgateway.policy.web;

import org.jspecify.annotations.NullMarked;
