/**
 * Background polling that keeps live state (policy, revocations) in step with its source.
 */
@NullMarked
package io.github.mcpgateway.poll;

import org.jspecify.annotations.NullMarked;
