/**
 * Audit events: one typed event per governed request, and the observers that log and
 * count them.
 */
@NullMarked
package io.github.mcpgateway.audit;

import org.jspecify.annotations.NullMarked;
