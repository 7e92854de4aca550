package io.github.mcpgateway.e2e;

import java.util.List;

import io.github.mcpgateway.e2e.IdempotentToolCalls.Attempt;

/**
 * A keyed {@code tools/call} that {@link IdempotentToolCalls} gave up on. What to do next
 * depends on {@link #code()}, the gateway's {@code error.data.code} (see the Responses
 * table of docs/idempotency.md), for example:
 * <ul>
 * <li>{@code idempotency_outcome_unknown}: the tool may or may not have run. Never retry
 * with this key; reconcile through the tool's own state, then use a new key if the
 * operation did not happen.</li>
 * <li>{@code idempotency_response_not_replayable}: the tool ran; its result is lost to
 * this caller.</li>
 * <li>{@code idempotency_key_conflict}: this key was used for another request: a client
 * bug.</li>
 * <li>{@code idempotency_capacity}, {@code idempotency_unavailable}: the tool did not
 * run; retry later with the same key.</li>
 * <li>{@code null} with {@link #status()} {@code 0}: no attempt got an answer (the
 * gateway may have run the tool; a later retry with the same key finds out); with another
 * status: an answer that is not a gateway error, such as an upstream {@code 5xx}.</li>
 * </ul>
 */
public class IdempotentCallException extends RuntimeException {

	private final String key;

	private final int status;

	private final String code;

	private final List<Attempt> attempts;

	IdempotentCallException(String tool, String key, int status, String code, List<Attempt> attempts, Throwable cause) {
		// The key stays out of the message, as the gateway keeps it out of its logs.
		super("tools/call " + tool + " failed after " + attempts.size() + " attempt(s): "
				+ ((status != 0) ? "HTTP " + status + ((code != null) ? " " + code : "") : "no answer"), cause);
		this.key = key;
		this.status = status;
		this.code = code;
		this.attempts = attempts;
	}

	/** The Idempotency-Key of the call. */
	public String key() {
		return this.key;
	}

	/** The HTTP status of the last answer, {@code 0} when the last attempt got none. */
	public int status() {
		return this.status;
	}

	/** The gateway's {@code error.data.code}, or {@code null}. */
	public String code() {
		return this.code;
	}

	public List<Attempt> attempts() {
		return this.attempts;
	}

}
