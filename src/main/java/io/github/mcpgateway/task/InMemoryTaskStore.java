package io.github.mcpgateway.task;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Task bindings in this process ({@code gateway.session.store: memory}, the default).
 *
 * <p>
 * Design notes.
 * <ul>
 * <li><b>Not a cache.</b> A full store refuses new reservations instead of evicting: an
 * evicted binding would be a task its owner can no longer reach. That is why this is not
 * a Caffeine cache, whose size bound evicts.</li>
 * <li><b>Counts.</b> Each principal's count (and the total) covers its live bindings and
 * its open reservations, so concurrent calls cannot together pass a cap.</li>
 * <li><b>Expiry.</b> Bindings expire at their own time (each task has its own ttl): a
 * queue ordered by expiry, drained at the start of every operation, O(log n) per
 * binding.</li>
 * <li><b>Concurrency.</b> Every operation holds the store's monitor; each is a few map
 * operations.</li>
 * </ul>
 */
final class InMemoryTaskStore implements TaskStore {

	private final Clock clock;

	private final int maxPerPrincipal;

	private final int maxBindings;

	private final Map<String, Stored> bindings = new HashMap<>();

	private final TreeSet<Stored> expiry = new TreeSet<>(
			Comparator.comparing(Stored::expiresAt).thenComparingLong(Stored::sequence));

	private final Map<String, Reservation> reservations = new HashMap<>();

	private final Map<String, Integer> perPrincipal = new HashMap<>();

	private final byte[] cursorSecret = TaskCursor.newSecret();

	private long sequence;

	InMemoryTaskStore(TaskProperties properties, Clock clock) {
		this.clock = clock;
		this.maxPerPrincipal = properties.maxBindingsPerPrincipal();
		this.maxBindings = properties.maxBindings();
	}

	@Override
	public byte[] cursorSecret() {
		return this.cursorSecret.clone();
	}

	@Override
	public synchronized @Nullable Reservation reserve(McpPrincipal principal) {
		expire();
		String key = TaskKeys.principal(principal);
		if (this.bindings.size() + this.reservations.size() >= this.maxBindings
				|| this.perPrincipal.getOrDefault(key, 0) >= this.maxPerPrincipal) {
			return null;
		}
		Reservation reservation = new Reservation(UUID.randomUUID().toString(), key);
		this.reservations.put(reservation.id(), reservation);
		this.perPrincipal.merge(key, 1, Integer::sum);
		return reservation;
	}

	@Override
	public synchronized void bind(Reservation reservation, String taskId, TaskBinding binding) {
		expire();
		String key = TaskKeys.task(binding.server(), taskId);
		boolean reserved = this.reservations.remove(reservation.id()) != null;
		if (this.bindings.containsKey(key)) {
			// Bound already (first owner kept): the reservation is given back.
			if (reserved) {
				decrement(reservation.principal());
			}
			return;
		}
		if (!reserved) {
			this.perPrincipal.merge(reservation.principal(), 1, Integer::sum);
		}
		Stored stored = new Stored(key, reservation.principal(), binding, ++this.sequence);
		this.bindings.put(key, stored);
		this.expiry.add(stored);
	}

	@Override
	public synchronized void release(Reservation reservation) {
		if (this.reservations.remove(reservation.id()) != null) {
			decrement(reservation.principal());
		}
	}

	@Override
	public synchronized @Nullable TaskBinding find(String server, String taskId) {
		expire();
		Stored stored = this.bindings.get(TaskKeys.task(server, taskId));
		return (stored != null) ? stored.binding() : null;
	}

	@Override
	public synchronized Set<String> owned(String server, McpPrincipal principal, Collection<String> taskIds) {
		expire();
		Set<String> owned = new HashSet<>();
		for (String taskId : taskIds) {
			Stored stored = this.bindings.get(TaskKeys.task(server, taskId));
			if (stored != null && stored.binding().ownedBy(server, principal)) {
				owned.add(taskId);
			}
		}
		return owned;
	}

	@Override
	public synchronized long size() {
		expire();
		return this.bindings.size();
	}

	@Override
	public String type() {
		return "memory";
	}

	private void expire() {
		Instant now = this.clock.instant();
		while (!this.expiry.isEmpty() && !this.expiry.first().expiresAt().isAfter(now)) {
			Stored stored = this.expiry.pollFirst();
			this.bindings.remove(stored.key());
			decrement(stored.principal());
		}
	}

	private void decrement(String principal) {
		this.perPrincipal.computeIfPresent(principal, (key, count) -> (count > 1) ? count - 1 : null);
	}

	private record Stored(String key, String principal, TaskBinding binding, long sequence) {

		Instant expiresAt() {
			return this.binding.expiresAt();
		}

	}

}
