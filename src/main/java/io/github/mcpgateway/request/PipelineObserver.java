package io.github.mcpgateway.request;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * What watches the pipeline from outside (tracing): {@link McpPipelineFilter} tells it
 * when it takes a request over, around each stage's decision and when it is done, and the
 * proxy asks it for an {@link UpstreamObservation} of each upstream call. An observer
 * decides nothing: it cannot refuse, answer or change a decision, and nothing it records
 * is read by a stage. The pipeline's own stages know nothing of it, so a stage has
 * nothing to describe: the observer derives what it shows from the context and the
 * decision.
 *
 * <p>
 * Contract: every call is made on the request's thread; none throws; what an observer
 * exports is the JSON-RPC method, tool and prompt names, the gateway's decisions and its
 * {@code data.code}s, never a token, an Idempotency-Key, an argument or a result. Without
 * an observer bean (tracing off, the default) the pipeline uses {@link #NONE}, whose
 * every call returns at once, and the proxy adds nothing around the upstream call.
 */
public interface PipelineObserver {

	/** Watches nothing: no ids, no observations. */
	PipelineObserver NONE = new PipelineObserver() {
	};

	/**
	 * The pipeline takes the request over from identity (Spring Security let it through).
	 */
	default void started(HttpServletRequest request, McpRequestContext context) {
	}

	/**
	 * A stage is about to decide about the request; the pipeline ends what this returns
	 * with the decision, once.
	 */
	default StageObservation stage(McpStage stage, McpRequestContext context) {
		return StageObservation.NONE;
	}

	/**
	 * The pipeline is done with the request: what the context recorded (a refusal, a
	 * failure) is final.
	 */
	default void finished(McpRequestContext context) {
	}

	/**
	 * The ids the request's audit line names: the current (server) span's, or
	 * {@code null} when the request is not traced.
	 */
	default @Nullable TraceIds traceIds() {
		return null;
	}

	/**
	 * The observation of one upstream call of the request, asked for when the proxy
	 * creates the call (before its headers and body are written).
	 */
	default UpstreamObservation upstream(McpRequestContext context) {
		return UpstreamObservation.NONE;
	}

	/** The observation of one stage's decision. */
	@FunctionalInterface
	interface StageObservation {

		/** Observes nothing. */
		StageObservation NONE = (decision, context) -> {
		};

		/**
		 * The stage decided: {@code decision} is {@code null} when it threw; what it
		 * recorded is on {@code context}.
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
