package io.github.mcpgateway.request;

import org.jspecify.annotations.Nullable;

/**
 * The trace and span the current request is recorded in, for its audit line: the server
 * span of the request when the gateway traces ({@code gateway.tracing.enabled}),
 * {@link #NONE} when it does not.
 */
@FunctionalInterface
public interface CurrentTrace {

	/** No tracing: no ids. */
	CurrentTrace NONE = () -> null;

	/** The current span's ids, or {@code null} when there is none. */
	@Nullable TraceIds current();

	/**
	 * W3C trace context ids in lower-case hex.
	 *
	 * @param traceId 32 hex digits
	 * @param spanId 16 hex digits
	 */
	record TraceIds(String traceId, String spanId) {

	}

}
