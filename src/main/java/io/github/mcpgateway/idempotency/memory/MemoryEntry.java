package io.github.mcpgateway.idempotency.memory;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.idempotency.BeginResult;
import io.github.mcpgateway.idempotency.BeginResult.Refusal;
import io.github.mcpgateway.idempotency.IdempotencyEntry;
import io.github.mcpgateway.idempotency.StoredReply;

/**
 * One entry of the {@link InMemoryIdempotencyStore} and its answer to a duplicate.
 * Identity equality; read and written only under the store's monitor.
 */
final class MemoryEntry {

	final String entryKey;

	final String requestHash;

	final String scopeId;

	final String principalId;

	final String humanId;

	private final QuotaLevel scope;

	private final QuotaLevel principal;

	private final QuotaLevel human;

	State state = State.IN_FLIGHT;

	/** Set at completion; present exactly when the state is {@link State#COMPLETED}. */
	@Nullable StoredReply reply;

	/** Set once, at completion, before the entry joins the expiry queue. */
	Instant expiresAt = Instant.MAX;

	/** Completion order, the tie-break of the expiry queue. */
	long sequence;

	MemoryEntry(IdempotencyEntry request, QuotaLevel scope, QuotaLevel principal, QuotaLevel human) {
		this.entryKey = request.entryKey();
		this.requestHash = request.requestHash();
		this.scopeId = request.scopeId();
		this.principalId = request.principalId();
		this.humanId = request.humanId();
		this.scope = scope;
		this.principal = principal;
		this.human = human;
	}

	/** The quota levels the entry counts in, narrowest first. */
	List<QuotaLevel> levels() {
		return List.of(this.scope, this.principal, this.human);
	}

	BeginResult answer(String requestHash) {
		if (!this.requestHash.equals(requestHash)) {
			return new BeginResult.Refused(Refusal.CONFLICT);
		}
		return switch (this.state) {
			case IN_FLIGHT -> new BeginResult.Refused(Refusal.IN_FLIGHT);
			case COMPLETED -> new BeginResult.Replay(this.reply);
			case OUTCOME_UNKNOWN -> new BeginResult.Refused(Refusal.OUTCOME_UNKNOWN);
			case NOT_REPLAYABLE -> new BeginResult.Refused(Refusal.NOT_REPLAYABLE);
		};
	}

	enum State {

		IN_FLIGHT, COMPLETED, OUTCOME_UNKNOWN, NOT_REPLAYABLE

	}

}
