/**
 * The gateway's one time source, {@link io.github.mcpgateway.clock.GatewayClock}: every
 * expiry, deadline, recovery window and measured duration reads it, so that a test moves
 * them all with one clock.
 */
@NullMarked
package io.github.mcpgateway.clock;

import org.jspecify.annotations.NullMarked;
