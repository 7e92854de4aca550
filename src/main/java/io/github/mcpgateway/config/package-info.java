/**
 * Application-wide wiring: the pipeline (the gateway's two servlet filters, their orders
 * and the order of the stages) and shared beans such as the clock.
 */
@NullMarked
package io.github.mcpgateway.config;

import org.jspecify.annotations.NullMarked;
