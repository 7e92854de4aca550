package io.github.mcpgateway.request;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;

/**
 * What a {@link McpStage} decided about a request, as a value the pipeline acts on: go
 * on, refuse, the stage answered, or go on with the exchange wrapped and a
 * {@link Completion} to run afterwards.
 */
public sealed interface StageDecision {

	/** Go on to the next stage unchanged. */
	static StageDecision proceed() {
		return Proceed.INSTANCE;
	}

	/** Stop and answer {@code error}; nothing goes upstream. */
	static StageDecision refuse(GatewayError error) {
		return new Refuse(error, null);
	}

	/**
	 * Stop and answer {@code error}; {@code reason} says why where the code alone does
	 * not (the audit line only).
	 */
	static StageDecision refuse(GatewayError error, @Nullable String reason) {
		return new Refuse(error, reason);
	}

	/** Stop: the stage wrote the answer itself (a replay). */
	static StageDecision answered() {
		return Answered.INSTANCE;
	}

	/** Go on with the same exchange; run {@code completion} once the rest is done. */
	static StageDecision around(Completion completion) {
		return new Wrap(null, null, completion);
	}

	/**
	 * Go on with {@code request} and {@code response} in place of the exchange's (either
	 * may be {@code null}: unchanged).
	 */
	static StageDecision wrap(@Nullable HttpServletRequest request, @Nullable HttpServletResponse response) {
		return new Wrap(request, response, null);
	}

	/**
	 * Go on with {@code request} and {@code response} in place of the exchange's (either
	 * may be {@code null}: unchanged); run {@code completion} once the rest is done.
	 */
	static StageDecision wrap(@Nullable HttpServletRequest request, @Nullable HttpServletResponse response,
			Completion completion) {
		return new Wrap(request, response, completion);
	}

	/** See {@link #proceed()}. */
	enum Proceed implements StageDecision {

		INSTANCE

	}

	/** See {@link #answered()}. */
	enum Answered implements StageDecision {

		INSTANCE

	}

	/** See {@link #refuse(GatewayError, String)}. */
	record Refuse(GatewayError error, @Nullable String reason) implements StageDecision {

		public Refuse {
			Assert.notNull(error, "error must not be null");
		}

	}

	/** See {@link #wrap(HttpServletRequest, HttpServletResponse, Completion)}. */
	record Wrap(@Nullable HttpServletRequest request, @Nullable HttpServletResponse response,
			@Nullable Completion completion) implements StageDecision {
	}

}
