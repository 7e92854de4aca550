package io.github.mcpgateway.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * The bounded table of MCP session bindings of one process
 * ({@code gateway.session.store: memory}): session id to the server and principal that
 * created it. Bindings are lost on restart and unknown to other replicas.
 *
 * <p>
 * Design notes. Eviction is exact least-recently-used (a {@link LinkedHashMap} kept in
 * order of last use by the binding's owner; a refused use by anyone else does not refresh
 * it), as the contract asks: when the table is full the binding idle the longest is
 * dropped, and a binding idle past the timeout is forgotten when next seen. A bounded
 * cache with frequency-based eviction (Caffeine) was considered; it resists floods better
 * but does not guarantee that the oldest idle binding goes first. A dropped binding costs
 * its client one 404 and a new {@code initialize}. All operations hold the table's
 * monitor; each is O(1), so the lock is held for nanoseconds. Dropped and expired
 * bindings are reported to the listener outside the lock.
 *
 * <p>
 * Within the table, each human holds at most {@code gateway.session.max-per-principal}
 * bindings ({@link PrincipalSessions}): a new one past that drops the same human's least
 * recently used binding first, so one human's flood of {@code initialize} cannot push
 * another human's sessions out of the table (only the global bound can, once more than
 * {@code max-bindings / max-per-principal} humans each hold their full share).
 */
final class InMemorySessionStore implements SessionStore {

	private final int maxBindings;

	private final Duration idleTimeout;

	private final Clock clock;

	private final Consumer<Dropped> onDropped;

	/** In order of last use: a use moves a binding to the end (remove, then put). */
	private final LinkedHashMap<String, Entry> bindings = new LinkedHashMap<>(256);

	/** Each human's bindings, kept in step with {@link #bindings} under its lock. */
	private final PrincipalSessions principals;

	InMemorySessionStore(SessionProperties properties, Clock clock, Consumer<Dropped> onDropped) {
		this.maxBindings = properties.maxBindings();
		this.idleTimeout = properties.idleTimeout();
		this.clock = clock;
		this.onDropped = onDropped;
		this.principals = new PrincipalSessions(properties.maxPerPrincipal());
	}

	@Override
	public boolean bind(String sessionId, SessionBinding binding) {
		List<Dropped> dropped = new ArrayList<>();
		boolean added;
		synchronized (this.bindings) {
			added = this.bindings.putIfAbsent(sessionId, new Entry(binding, this.clock.instant())) == null;
			String capped = added ? this.principals.added(human(binding), sessionId) : null;
			if (capped != null) {
				Entry entry = this.bindings.remove(capped);
				dropped.add(new Dropped(capped, entry.binding(), true));
			}
			Iterator<Map.Entry<String, Entry>> eldest = this.bindings.entrySet().iterator();
			while (this.bindings.size() > this.maxBindings && eldest.hasNext()) {
				Map.Entry<String, Entry> entry = eldest.next();
				eldest.remove();
				this.principals.removed(human(entry.getValue().binding()), entry.getKey());
				dropped.add(new Dropped(entry.getKey(), entry.getValue().binding(), false));
			}
		}
		dropped.forEach(this.onDropped);
		return added;
	}

	@Override
	public @Nullable SessionBinding use(String sessionId, SessionBinding owner) {
		Instant now = this.clock.instant();
		Dropped expired = null;
		Entry entry;
		synchronized (this.bindings) {
			entry = this.bindings.get(sessionId);
			if (entry != null && entry.lastUsed().plus(this.idleTimeout).isBefore(now)) {
				this.bindings.remove(sessionId);
				this.principals.removed(human(entry.binding()), sessionId);
				expired = new Dropped(sessionId, entry.binding(), false);
				entry = null;
			}
			else if (entry != null && entry.binding().sameOwner(owner)) {
				// Only the owner's use keeps a binding alive: someone replaying a stolen
				// id must not.
				this.bindings.remove(sessionId);
				this.bindings.put(sessionId, new Entry(entry.binding(), now));
				this.principals.used(human(entry.binding()), sessionId);
			}
		}
		if (expired != null) {
			this.onDropped.accept(expired);
		}
		return (entry != null) ? entry.binding() : null;
	}

	@Override
	public @Nullable SessionBinding remove(String sessionId) {
		Entry entry;
		synchronized (this.bindings) {
			entry = this.bindings.remove(sessionId);
			if (entry != null) {
				this.principals.removed(human(entry.binding()), sessionId);
			}
		}
		return (entry != null) ? entry.binding() : null;
	}

	/** Bindings of {@code human}. */
	int sizeOf(String human) {
		synchronized (this.bindings) {
			return this.principals.count(human);
		}
	}

	private static @Nullable String human(SessionBinding binding) {
		return (binding.principal() != null) ? binding.principal().human() : null;
	}

	@Override
	public long size() {
		synchronized (this.bindings) {
			return this.bindings.size();
		}
	}

	@Override
	public String type() {
		return "memory";
	}

	private record Entry(SessionBinding binding, Instant lastUsed) {
	}

	/**
	 * A binding that left the table without its client ending it.
	 *
	 * @param principalCap whether its human's cap pushed it out (else the table's bound
	 * or the idle timeout)
	 */
	record Dropped(String sessionId, SessionBinding binding, boolean principalCap) {
	}

}
