package io.github.mcpgateway.request;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;

/**
 * What a {@link McpStage} decided about a request, as a value the pipeline acts on: go
 * on, refuse, the stage answered, or go on with the exchange wrapped and a
 * {@link Completion} to run afterwards. Two decisions say when a request is known to run,
 * for charges that only a running request may take: {@link #deferCharge} leaves a charge
 * until then, {@link #commit} says "from here it runs" (the pipeline runs the charges
 * left, at the latest once every stage went on).
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
	 * Stop and answer {@code error}; {@code reason}, the refusing capability's own value,
	 * says why where the code alone does not (the audit line only).
	 */
	static StageDecision refuse(GatewayError error, @Nullable RefusalReason reason) {
		return new Refuse(error, reason);
	}

	/**
	 * Go on, and charge the request once it is known to run: never when a later stage
	 * refuses or answers it (a replay), else when a later stage commits it or, at the
	 * latest, once every stage went on. A refused charge refuses the request.
	 */
	static StageDecision deferCharge(DeferredCharge charge) {
		return new Defer(charge);
	}

	/**
	 * The request is known to run from here on: the pipeline runs the charges earlier
	 * stages deferred, then acts on the decision {@code run} gives (a wrap, usually);
	 * when a charge refuses, it runs {@code withdraw} instead (the stage gives back what
	 * it took for the request) and refuses the request.
	 */
	static StageDecision commit(Run run, Runnable withdraw) {
		return new Commit(run, withdraw);
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

	/** See {@link #refuse(GatewayError, RefusalReason)}. */
	record Refuse(GatewayError error, @Nullable RefusalReason reason) implements StageDecision {

		public Refuse {
			Assert.notNull(error, "error must not be null");
		}

	}

	/** See {@link #deferCharge(DeferredCharge)}. */
	record Defer(DeferredCharge charge) implements StageDecision {

		public Defer {
			Assert.notNull(charge, "charge must not be null");
		}

	}

	/** See {@link #commit(Run, Runnable)}. */
	record Commit(Run run, Runnable withdraw) implements StageDecision {

		public Commit {
			Assert.notNull(run, "run must not be null");
			Assert.notNull(withdraw, "withdraw must not be null");
		}

	}

	/** What a committing stage does once the request's charges are taken. */
	@FunctionalInterface
	interface Run {

		/** The stage's decision for the running request; neither a defer nor a commit. */
		StageDecision decide() throws IOException;

	}

	/** See {@link #wrap(HttpServletRequest, HttpServletResponse, Completion)}. */
	record Wrap(@Nullable HttpServletRequest request, @Nullable HttpServletResponse response,
			@Nullable Completion completion) implements StageDecision {
	}

}
