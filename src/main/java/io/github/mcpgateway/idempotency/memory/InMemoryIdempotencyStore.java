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

import io.github.mcpgateway.idempotency.BeginResult.Refusal;
import io.github.mcpgateway.idempotency.BeginResult;
import io.github.mcpgateway.idempotency.IdempotencyEntry;
import io.github.mcpgateway.idempotency.IdempotencyProperties.Limits;
import io.github.mcpgateway.idempotency.IdempotencyStats;
import io.github.mcpgateway.idempotency.IdempotencyStore;
import io.github.mcpgateway.idempotency.StoredReply;

/**
 * The bounded in-process store of the Idempotency-Key contract.
 *
 * <p>
 * Design notes.
 * <ul>
 * <li><b>States.</b> An entry is in flight, completed (replayable) or a tombstone
 * (outcome unknown, or not replayable). In flight leaves only through complete, tombstone
 * or release; completed entries and tombstones expire {@code ttl} after completion.</li>
 * <li><b>Quotas nest</b>: per scope (principal and session), per principal, global.
 * Reaching an entry cap evicts the oldest completed replayable entry at that level;
 * in-flight entries and tombstones are never evicted (evicting a tombstone would allow a
 * second execution after an ambiguous outcome; evicting an in-flight entry would let a
 * duplicate start). Reaching an in-flight cap, or a scope's tombstone budget (tombstones
 * plus one reserved slot per in-flight entry, since each may end as a tombstone) refuses
 * with {@link Refusal#CAPACITY}.</li>
 * <li><b>Eviction order</b> is completion order, kept by insertion-ordered sets per
 * level, so eviction is O(1) per entry. <b>Expiry order</b> is expiry time: most entries
 * expire the TTL after completion, but the entry of a call that created a task lives as
 * long as the task ({@code atLeast}), so the expiry queue is ordered by expiry (O(log n)
 * per entry). Expiry runs on every {@code begin}.</li>
 * <li><b>Concurrency.</b> Every operation holds the store's monitor: begin's
 * check-and-insert is atomic, which is what lets exactly one of many concurrent
 * duplicates start. The store holds at most a few hundred small entries, so the lock is
 * held for microseconds.</li>
 * <li><b>Attack notes.</b> One principal can fill only its own scope and principal
 * quotas; to cut other principals' replay windows it must fill the global cap, which
 * takes several principals' worth of quota. Memory is bounded by
 * {@code maxEntries × maxReplySize}.</li>
 * </ul>
 */
public final class InMemoryIdempotencyStore implements IdempotencyStore {

	private final Limits limits;

	private final Clock clock;

	private final Map<String, Entry> entries = new HashMap<>();

	/** Completed entries and tombstones, by expiry: the expiry queue. */
	private final TreeSet<Entry> terminal = new TreeSet<>(
			Comparator.comparing((Entry entry) -> entry.expiresAt).thenComparingLong((entry) -> entry.sequence));

	private long sequence;

	/** Replayable entries in completion order: the eviction queues. */
	private final LinkedHashSet<Entry> replayable = new LinkedHashSet<>();

	private final Map<String, Level> scopes = new HashMap<>();

	private final Map<String, Level> principals = new HashMap<>();

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
		Entry existing = this.entries.get(request.entryKey());
		if (existing != null) {
			return existing.answer(request.requestHash());
		}
		Level scope = this.scopes.computeIfAbsent(request.scopeId(), (id) -> new Level());
		Level principal = this.principals.computeIfAbsent(request.principalId(), (id) -> new Level());
		if (!admit(scope, principal)) {
			forgetIfEmpty(request);
			return new BeginResult.Refused(Refusal.CAPACITY);
		}
		// An eviction may have emptied, and so dropped, a level just checked: attach it
		// again.
		this.scopes.putIfAbsent(request.scopeId(), scope);
		this.principals.putIfAbsent(request.principalId(), principal);
		Entry entry = new Entry(request, scope, principal);
		this.entries.put(request.entryKey(), entry);
		scope.entries++;
		scope.inFlight++;
		principal.entries++;
		principal.inFlight++;
		this.inFlight++;
		return new BeginResult.Started();
	}

	private boolean admit(Level scope, Level principal) {
		if (this.inFlight >= this.limits.maxInFlight() || scope.inFlight >= this.limits.maxInFlightPerScope()
				|| principal.inFlight >= this.limits.maxInFlightPerPrincipal()) {
			return false;
		}
		if (scope.tombstones + scope.inFlight + 1 > this.limits.maxTombstonesPerScope()) {
			return false;
		}
		if (scope.entries >= this.limits.maxEntriesPerScope() && !evictOldest(scope.replayable)) {
			return false;
		}
		if (principal.entries >= this.limits.maxEntriesPerPrincipal() && !evictOldest(principal.replayable)) {
			return false;
		}
		return this.entries.size() < this.limits.maxEntries() || evictOldest(this.replayable);
	}

	@Override
	public synchronized void complete(IdempotencyEntry request, StoredReply reply, Duration atLeast) {
		Entry entry = inFlight(request);
		if (entry == null) {
			return;
		}
		finish(entry, State.COMPLETED, atLeast);
		entry.reply = reply;
		this.bytes += reply.size();
		this.replayable.add(entry);
		entry.scope.replayable.add(entry);
		entry.principal.replayable.add(entry);
	}

	@Override
	public synchronized void tombstone(IdempotencyEntry request, TombstoneKind kind, Duration atLeast) {
		Entry entry = inFlight(request);
		if (entry == null) {
			return;
		}
		finish(entry, (kind == TombstoneKind.OUTCOME_UNKNOWN) ? State.OUTCOME_UNKNOWN : State.NOT_REPLAYABLE, atLeast);
		entry.scope.tombstones++;
		this.tombstones++;
	}

	@Override
	public synchronized void release(IdempotencyEntry request) {
		Entry entry = inFlight(request);
		if (entry != null) {
			remove(entry);
		}
	}

	@Override
	public synchronized IdempotencyStats stats() {
		// Like the Redis store's, the counts leave out what has expired.
		expire(this.clock.instant());
		int fullest = 0;
		for (Level scope : this.scopes.values()) {
			fullest = Math.max(fullest, scope.tombstones + scope.inFlight);
		}
		return new IdempotencyStats(this.entries.size(), this.inFlight, this.tombstones, this.replayable.size(),
				this.bytes, fullest);
	}

	@Override
	public synchronized boolean clearTombstone(String keyHash) {
		Entry match = null;
		for (Entry entry : this.terminal) {
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

	private @Nullable Entry inFlight(IdempotencyEntry request) {
		Entry entry = this.entries.get(request.entryKey());
		return (entry != null && entry.state == State.IN_FLIGHT && entry.requestHash.equals(request.requestHash()))
				? entry : null;
	}

	private void finish(Entry entry, State state, Duration atLeast) {
		entry.state = state;
		Instant now = this.clock.instant();
		entry.expiresAt = now.plus((atLeast.compareTo(this.limits.ttl()) > 0) ? atLeast : this.limits.ttl());
		entry.sequence = ++this.sequence;
		entry.scope.inFlight--;
		entry.principal.inFlight--;
		this.inFlight--;
		this.terminal.add(entry);
	}

	private boolean evictOldest(LinkedHashSet<Entry> queue) {
		Iterator<Entry> oldest = queue.iterator();
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

	private void remove(Entry entry) {
		this.entries.remove(entry.entryKey);
		this.terminal.remove(entry);
		entry.scope.entries--;
		entry.principal.entries--;
		switch (entry.state) {
			case IN_FLIGHT -> {
				entry.scope.inFlight--;
				entry.principal.inFlight--;
				this.inFlight--;
			}
			case COMPLETED -> {
				this.replayable.remove(entry);
				entry.scope.replayable.remove(entry);
				entry.principal.replayable.remove(entry);
				this.bytes -= entry.reply.size();
			}
			case OUTCOME_UNKNOWN, NOT_REPLAYABLE -> {
				entry.scope.tombstones--;
				this.tombstones--;
			}
		}
		if (entry.scope.entries == 0) {
			this.scopes.remove(entry.scopeId);
		}
		if (entry.principal.entries == 0) {
			this.principals.remove(entry.principalId);
		}
	}

	private void forgetIfEmpty(IdempotencyEntry request) {
		Level scope = this.scopes.get(request.scopeId());
		if (scope != null && scope.entries == 0) {
			this.scopes.remove(request.scopeId());
		}
		Level principal = this.principals.get(request.principalId());
		if (principal != null && principal.entries == 0) {
			this.principals.remove(request.principalId());
		}
	}

	private enum State {

		IN_FLIGHT, COMPLETED, OUTCOME_UNKNOWN, NOT_REPLAYABLE

	}

	/** Counts and the eviction queue of one quota level (a scope or a principal). */
	private static final class Level {

		private int entries;

		private int inFlight;

		private int tombstones;

		private final LinkedHashSet<Entry> replayable = new LinkedHashSet<>();

	}

	/** One entry; identity equality, mutated only under the store's monitor. */
	private static final class Entry {

		private final String entryKey;

		private final String requestHash;

		private final String scopeId;

		private final String principalId;

		private final Level scope;

		private final Level principal;

		private State state = State.IN_FLIGHT;

		private @Nullable StoredReply reply;

		/** Set once, at completion, before the entry joins the expiry queue. */
		private Instant expiresAt = Instant.MAX;

		private long sequence;

		Entry(IdempotencyEntry request, Level scope, Level principal) {
			this.entryKey = request.entryKey();
			this.requestHash = request.requestHash();
			this.scopeId = request.scopeId();
			this.principalId = request.principalId();
			this.scope = scope;
			this.principal = principal;
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

	}

}
