/**
 * The grant stage of the pipeline: the filter that applies the policy model to a request,
 * and the response wrappers that filter {@code tools/list} replies.
 */
@NullMarked
package io.github.mcpgateway.policy.web;

import org.jspecify.annotations.NullMarked;
