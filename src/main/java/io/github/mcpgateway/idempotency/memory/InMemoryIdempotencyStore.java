package io.github.mcpgateway.idempotency.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.idempotency.BeginResult;
import io.github.mcpgateway.idempotency.BeginResult.Limit;
import io.github.mcpgateway.idempotency.BeginResult.Refusal;
import io.github.mcpgateway.idempotency.IdempotencyEntry;
import io.github.mcpgateway.idempotency.IdempotencyProperties.Limits;
import io.github.mcpgateway.idempotency.IdempotencyStats;
import io.github.mcpgateway.idempotency.IdempotencyStore;
import io.github.mcpgateway.idempotency.StoredReply;
import io.github.mcpgateway.idempotency.memory.MemoryEntry.State;

/**
 * The bounded in-process store of the Idempotency-Key contract.
 *
 * <p>
 * Design notes.
 * <ul>
 * <li><b>States.</b> An entry is in flight, completed (replayable) or a tombstone
 * (outcome unknown, or not replayable). In flight leaves only through complete, tombstone
 * or release; completed entries and tombstones expire {@code ttl} after completion.</li>
 * <li><b>Quotas nest</b>: per scope (principal and session), per principal, per human
 * (across all its agents, teams and sessions), global. Reaching an entry cap evicts the
 * oldest completed replayable entry at that level; in-flight entries and tombstones are
 * never evicted (evicting a tombstone would allow a second execution after an ambiguous
 * outcome; evicting an in-flight entry would let a duplicate start). Reaching an
 * in-flight cap, or the tombstone budget of the scope or of the human (tombstones plus
 * one reserved slot per in-flight entry, since each may end as a tombstone) refuses with
 * {@link Refusal#CAPACITY} and names the {@link Limit}.</li>
 * <li><b>Eviction order</b> is completion order, kept by insertion-ordered sets per
 * level, so eviction is O(1) per entry. <b>Expiry order</b> is expiry time: most entries
 * expire the TTL after completion, but the entry of a call that created a task lives as
 * long as the task ({@code atLeast}), so the expiry queue is ordered by expiry (O(log n)
 * per entry). Expiry runs on every {@code begin}.</li>
 * <li><b>Concurrency.</b> Every operation holds the store's monitor: begin's
 * check-and-insert is atomic, which is what lets exactly one of many concurrent
 * duplicates start. The store holds at most a few hundred small entries, so the lock is
 * held for microseconds.</li>
 * <li><b>Attack notes.</b> The agent and team of a principal are often the client's
 * choice, so a human can be many principals; the human is what the identity provider
 * verified. A human's tombstones and in-flight entries, the entries nothing can evict,
 * stay within its budget, which is below the global caps (the {@link Limits} constructor
 * enforces it): one human alone can never make the global cap refuse another caller, and
 * to cut other callers' replay windows it must fill the global cap, which takes several
 * humans' worth of quota (ADR 0019). Memory is bounded by
 * {@code maxEntries × maxReplySize}.</li>
 * </ul>
 */
public final class InMemoryIdempotencyStore implements IdempotencyStore {

	private final Limits limits;

	private final Clock clock;

	private final Map<String, MemoryEntry> entries = new HashMap<>();

	/** Completed entries and tombstones, by expiry: the expiry queue. */
	private final TreeSet<MemoryEntry> terminal = new TreeSet<>(
			Comparator.comparing((MemoryEntry entry) -> entry.expiresAt).thenComparingLong((entry) -> entry.sequence));

	private long sequence;

	/** Replayable entries in completion order: the eviction queues. */
	private final LinkedHashSet<MemoryEntry> replayable = new LinkedHashSet<>();

	private final QuotaLevels scopes = new QuotaLevels();

	private final QuotaLevels principals = new QuotaLevels();

	private final QuotaLevels humans = new QuotaLevels();

	private int inFlight;

	private int tombstones;

	private long bytes;

	public InMemoryIdempotencyStore(Limits limits, Clock clock) {
		this.limits = limits;
		this.clock = clock;
	}

	@Override
	public synchronized BeginResult begin(IdempotencyEntry request) {
		expire(this.clock.instant());
		MemoryEntry existing = this.entries.get(request.entryKey());
		if (existing != null) {
			return existing.answer(request.requestHash());
		}
		QuotaLevel scope = this.scopes.get(request.scopeId());
		QuotaLevel principal = this.principals.get(request.principalId());
		QuotaLevel human = this.humans.get(request.humanId());
		Limit full = admit(scope, principal, human);
		if (full != null) {
			forgetIfEmpty(request);
			return BeginResult.Refused.capacity(full);
		}
		// An eviction may have emptied, and so dropped, a level just checked: attach it
		// again.
		this.scopes.reattach(request.scopeId(), scope);
		this.principals.reattach(request.principalId(), principal);
		this.humans.reattach(request.humanId(), human);
		MemoryEntry entry = new MemoryEntry(request, scope, principal, human);
		this.entries.put(request.entryKey(), entry);
		for (QuotaLevel level : entry.levels()) {
			level.entries++;
			level.inFlight++;
		}
		this.inFlight++;
		return new BeginResult.Started();
	}

	/** The limit that refuses a new entry, or {@code null} when it may start. */
	private @Nullable Limit admit(QuotaLevel scope, QuotaLevel principal, QuotaLevel human) {
		if (this.inFlight >= this.limits.maxInFlight()) {
			return Limit.IN_FLIGHT;
		}
		if (scope.inFlight >= this.limits.maxInFlightPerScope()) {
			return Limit.IN_FLIGHT_PER_SCOPE;
		}
		if (principal.inFlight >= this.limits.maxInFlightPerPrincipal()) {
			return Limit.IN_FLIGHT_PER_PRINCIPAL;
		}
		if (human.inFlight >= this.limits.maxInFlightPerHuman()) {
			return Limit.IN_FLIGHT_PER_HUMAN;
		}
		if (scope.tombstones + scope.inFlight + 1 > this.limits.maxTombstonesPerScope()) {
			return Limit.TOMBSTONES_PER_SCOPE;
		}
		if (human.tombstones + human.inFlight + 1 > this.limits.maxTombstonesPerHuman()) {
			return Limit.TOMBSTONES_PER_HUMAN;
		}
		if (scope.entries >= this.limits.maxEntriesPerScope() && !evictOldest(scope.replayable)) {
			return Limit.ENTRIES_PER_SCOPE;
		}
		if (principal.entries >= this.limits.maxEntriesPerPrincipal() && !evictOldest(principal.replayable)) {
			return Limit.ENTRIES_PER_PRINCIPAL;
		}
		if (human.entries >= this.limits.maxEntriesPerHuman() && !evictOldest(human.replayable)) {
			return Limit.ENTRIES_PER_HUMAN;
		}
		if (this.entries.size() >= this.limits.maxEntries() && !evictOldest(this.replayable)) {
			return Limit.ENTRIES;
		}
		return null;
	}

	@Override
	public synchronized void complete(IdempotencyEntry request, StoredReply reply, Duration atLeast) {
		MemoryEntry entry = inFlight(request);
		if (entry == null) {
			return;
		}
		finish(entry, State.COMPLETED, atLeast);
		entry.reply = reply;
		this.bytes += reply.size();
		this.replayable.add(entry);
		for (QuotaLevel level : entry.levels()) {
			level.replayable.add(entry);
		}
	}

	@Override
	public synchronized void tombstone(IdempotencyEntry request, TombstoneKind kind, Duration atLeast) {
		MemoryEntry entry = inFlight(request);
		if (entry == null) {
			return;
		}
		finish(entry, (kind == TombstoneKind.OUTCOME_UNKNOWN) ? State.OUTCOME_UNKNOWN : State.NOT_REPLAYABLE, atLeast);
		for (QuotaLevel level : entry.levels()) {
			level.tombstones++;
		}
		this.tombstones++;
	}

	@Override
	public synchronized void release(IdempotencyEntry request) {
		MemoryEntry entry = inFlight(request);
		if (entry != null) {
			remove(entry);
		}
	}

	@Override
	public synchronized IdempotencyStats stats() {
		// Like the Redis store's, the counts leave out what has expired.
		expire(this.clock.instant());
		return new IdempotencyStats(this.entries.size(), this.inFlight, this.tombstones, this.replayable.size(),
				this.bytes, this.scopes.fullestBudget(), this.humans.fullestBudget());
	}

	@Override
	public synchronized boolean clearTombstone(String keyHash) {
		MemoryEntry match = null;
		for (MemoryEntry entry : this.terminal) {
			if (entry.state != State.COMPLETED && entry.entryKey.startsWith(keyHash)) {
				if (match != null) {
					return false;
				}
				match = entry;
			}
		}
		if (match == null) {
			return false;
		}
		remove(match);
		return true;
	}

	private @Nullable MemoryEntry inFlight(IdempotencyEntry request) {
		MemoryEntry entry = this.entries.get(request.entryKey());
		return (entry != null && entry.state == State.IN_FLIGHT && entry.requestHash.equals(request.requestHash()))
				? entry : null;
	}

	private void finish(MemoryEntry entry, State state, Duration atLeast) {
		entry.state = state;
		Instant now = this.clock.instant();
		entry.expiresAt = now.plus((atLeast.compareTo(this.limits.ttl()) > 0) ? atLeast : this.limits.ttl());
		entry.sequence = ++this.sequence;
		for (QuotaLevel level : entry.levels()) {
			level.inFlight--;
		}
		this.inFlight--;
		this.terminal.add(entry);
	}

	private boolean evictOldest(LinkedHashSet<MemoryEntry> queue) {
		Iterator<MemoryEntry> oldest = queue.iterator();
		if (!oldest.hasNext()) {
			return false;
		}
		remove(oldest.next());
		return true;
	}

	private void expire(Instant now) {
		while (!this.terminal.isEmpty() && !this.terminal.first().expiresAt.isAfter(now)) {
			remove(this.terminal.first());
		}
	}

	private void remove(MemoryEntry entry) {
		this.entries.remove(entry.entryKey);
		this.terminal.remove(entry);
		for (QuotaLevel level : entry.levels()) {
			level.entries--;
			switch (entry.state) {
				case IN_FLIGHT -> level.inFlight--;
				case COMPLETED -> level.replayable.remove(entry);
				case OUTCOME_UNKNOWN, NOT_REPLAYABLE -> level.tombstones--;
			}
		}
		switch (entry.state) {
			case IN_FLIGHT -> this.inFlight--;
			case COMPLETED -> {
				this.replayable.remove(entry);
				this.bytes -= entry.reply.size();
			}
			case OUTCOME_UNKNOWN, NOT_REPLAYABLE -> this.tombstones--;
		}
		this.scopes.forgetIfEmpty(entry.scopeId);
		this.principals.forgetIfEmpty(entry.principalId);
		this.humans.forgetIfEmpty(entry.humanId);
	}

	private void forgetIfEmpty(IdempotencyEntry request) {
		this.scopes.forgetIfEmpty(request.scopeId());
		this.principals.forgetIfEmpty(request.principalId());
		this.humans.forgetIfEmpty(request.humanId());
	}

}
