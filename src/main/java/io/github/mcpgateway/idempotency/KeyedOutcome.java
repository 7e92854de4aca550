package io.github.mcpgateway.idempotency;

import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.request.AuditContribution;
import io.github.mcpgateway.request.ContextSlot;
import io.github.mcpgateway.request.McpRequestContext;

/**
 * How the Idempotency-Key stage handled a request, in its {@link #SLOT}, which only this
 * package writes: the audit line's {@code idempotency} and {@code idempotency_key_hash}
 * fields and the {@code outcome} of {@value IdempotencyMeters#OUTCOMES}.
 *
 * @param outcome {@code first}, {@code replay}, ...
 * @param keyHash the first 16 hex characters of the scoped key hash, when the key was
 * scoped; never the key
 */
public record KeyedOutcome(IdempotencyOutcome outcome, @Nullable String keyHash) implements AuditContribution {

	/** The Idempotency-Key stage's outcome of the request, absent for an unkeyed one. */
	public static final ContextSlot<KeyedOutcome> SLOT = ContextSlot.declare("idempotency");

	private static final ContextSlot.Writer<KeyedOutcome> writer = SLOT.writer();

	/** Where its fields go in the audit line: first of the capabilities'. */
	static final int POSITION = 100;

	/** Records how the stage handled the request of {@code context}. */
	static void record(McpRequestContext context, IdempotencyOutcome outcome, @Nullable String keyHash) {
		writer.put(context, new KeyedOutcome(outcome, keyHash));
	}

	@Override
	public int position() {
		return POSITION;
	}

	@Override
	public void writeFields(BiConsumer<String, @Nullable String> field) {
		field.accept("idempotency", this.outcome.tag());
		field.accept("idempotency_key_hash", this.keyHash);
	}

	@Override
	public void countOutcome(BiConsumer<String, String> counter) {
		counter.accept(IdempotencyMeters.OUTCOMES, this.outcome.tag());
	}

}
