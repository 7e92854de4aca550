package io.github.mcpgateway.request;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * What the pipeline tells the request's trace, and the ids its audit line names. With
 * tracing on ({@code gateway.tracing.enabled}) the request has a server span, the
 * pipeline opens one span per stage under it, and a refusal marks the server span as an
 * error; {@link #NONE} (tracing off) does nothing and names no ids.
 *
 * <p>
 * Contract: every call is made on the request's thread, inside its server span; none
 * throws; what reaches a span is the JSON-RPC method, tool and prompt names, the
 * gateway's decisions and its {@code data.code}s, never a token, an Idempotency-Key, an
 * argument or a result.
 */
public interface CurrentTrace {

	/** No tracing: no ids, no spans. */
	CurrentTrace NONE = new CurrentTrace() {

		@Override
		public @Nullable TraceIds current() {
			return null;
		}

		@Override
		public StageSpan stage(McpStage stage) {
			return StageSpan.NONE;
		}

	};

	/** The current span's ids, or {@code null} when there is none. */
	@Nullable TraceIds current();

	/**
	 * The pipeline takes the request over from identity (Spring Security let it through):
	 * ends the identity span, if there is one.
	 */
	default void identified(HttpServletRequest request, McpRequestContext context) {
	}

	/** Opens the span of one stage's decision; the caller ends it. */
	StageSpan stage(McpStage stage);

	/**
	 * The pipeline is done with the request: a refusal or failure recorded on the context
	 * marks the server span as an error with the gateway's {@code data.code}.
	 */
	default void finished(McpRequestContext context) {
	}

	/** The span of one stage's decision. */
	interface StageSpan {

		/** No span. */
		StageSpan NONE = (decision, context) -> {
		};

		/**
		 * Ends the span with the stage's decision: what the stage recorded on the context
		 * ({@link McpStage#describe}) and, for a refusal, its {@code data.code} as the
		 * error; {@code decision} is {@code null} when the stage threw.
		 */
		void end(@Nullable StageDecision decision, McpRequestContext context);

	}

	/**
	 * W3C trace context ids in lower-case hex.
	 *
	 * @param traceId 32 hex digits
	 * @param spanId 16 hex digits
	 */
	record TraceIds(String traceId, String spanId) {

	}

}
