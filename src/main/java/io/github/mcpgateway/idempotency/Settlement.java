package io.github.mcpgateway.idempotency;

import java.time.Duration;

import io.github.mcpgateway.idempotency.IdempotencyStore.TombstoneKind;

/**
 * What the store keeps of a keyed call once its outcome is known: the decision of
 * {@link KeyedCallSettlement}, applied to the store by the Idempotency-Key stage.
 */
sealed interface Settlement {

	/** The call did not run: the key is free again. */
	Settlement RELEASE = new Release();

	/** A tombstone of {@code kind}, kept at least {@code atLeast}. */
	static Settlement tombstone(TombstoneKind kind, Duration atLeast) {
		return new Tombstone(kind, atLeast);
	}

	/** The reply a retry gets, kept at least {@code atLeast}. */
	static Settlement complete(StoredReply reply, Duration atLeast) {
		return new Complete(reply, atLeast);
	}

	/** Records this settlement of {@code entry} in {@code store}. */
	void applyTo(IdempotencyStore store, IdempotencyEntry entry);

	record Release() implements Settlement {

		@Override
		public void applyTo(IdempotencyStore store, IdempotencyEntry entry) {
			store.release(entry);
		}

	}

	record Tombstone(TombstoneKind kind, Duration atLeast) implements Settlement {

		@Override
		public void applyTo(IdempotencyStore store, IdempotencyEntry entry) {
			store.tombstone(entry, this.kind, this.atLeast);
		}

	}

	record Complete(StoredReply reply, Duration atLeast) implements Settlement {

		@Override
		public void applyTo(IdempotencyStore store, IdempotencyEntry entry) {
			store.complete(entry, this.reply, this.atLeast);
		}

	}

}
