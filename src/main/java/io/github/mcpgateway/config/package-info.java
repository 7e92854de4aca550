/**
 * Application-wide wiring: the servlet filter chain order and shared beans such as the
 * clock.
 */
@NullMarked
package io.github.mcpgateway.config;

import org.jspecify.annotations.NullMarked;
