/**
 * What the gateway writes about values it did not choose: a caller's strings bounded in
 * length before they reach a log line, a span or a metric, and credentials in URLs
 * removed from every message it shows ({@link io.github.mcpgateway.redact.ShownText}).
 */
@NullMarked
package io.github.mcpgateway.redact;

import org.jspecify.annotations.NullMarked;
