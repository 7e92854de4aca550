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
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The bounded table of MCP session bindings: session id to the server and principal that
 * created it.
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
 */
final class SessionRegistry {

	private final int maxBindings;

	private final Duration idleTimeout;

	private final Clock clock;

	private final Consumer<Dropped> onDropped;

	/** In order of last use: a use moves a binding to the end (remove, then put). */
	private final LinkedHashMap<String, SessionBinding> bindings = new LinkedHashMap<>(256);

	SessionRegistry(SessionProperties properties, Clock clock, Consumer<Dropped> onDropped) {
		this.maxBindings = properties.maxBindings();
		this.idleTimeout = properties.idleTimeout();
		this.clock = clock;
		this.onDropped = onDropped;
	}

	/** Binds {@code sessionId} unless it is already bound; returns whether it was new. */
	boolean bind(String sessionId, String serverKey, @Nullable McpPrincipal principal) {
		List<Dropped> dropped = new ArrayList<>();
		boolean added;
		synchronized (this.bindings) {
			added = this.bindings.putIfAbsent(sessionId,
					new SessionBinding(serverKey, principal, this.clock.instant())) == null;
			Iterator<Map.Entry<String, SessionBinding>> eldest = this.bindings.entrySet().iterator();
			while (this.bindings.size() > this.maxBindings && eldest.hasNext()) {
				Map.Entry<String, SessionBinding> entry = eldest.next();
				eldest.remove();
				dropped.add(new Dropped(entry.getKey(), entry.getValue()));
			}
		}
		dropped.forEach(this.onDropped);
		return added;
	}

	/**
	 * The live binding of {@code sessionId}, marked as used now; {@code null} if unknown
	 * or idle too long.
	 */
	@Nullable SessionBinding use(String sessionId, Predicate<SessionBinding> owner) {
		Instant now = this.clock.instant();
		Dropped expired = null;
		SessionBinding binding;
		synchronized (this.bindings) {
			binding = this.bindings.get(sessionId);
			if (binding != null && binding.lastUsed().plus(this.idleTimeout).isBefore(now)) {
				this.bindings.remove(sessionId);
				expired = new Dropped(sessionId, binding);
				binding = null;
			}
			else if (binding != null && owner.test(binding)) {
				// Only the owner's use keeps a binding alive: someone replaying a stolen
				// id must not.
				binding = binding.touched(now);
				this.bindings.remove(sessionId);
				this.bindings.put(sessionId, binding);
			}
		}
		if (expired != null) {
			this.onDropped.accept(expired);
		}
		return binding;
	}

	/** Removes the binding; returns it, or {@code null} if there was none. */
	@Nullable SessionBinding remove(String sessionId) {
		synchronized (this.bindings) {
			return this.bindings.remove(sessionId);
		}
	}

	int size() {
		synchronized (this.bindings) {
			return this.bindings.size();
		}
	}

	/** A binding that left the table without its client ending it. */
	record Dropped(String sessionId, SessionBinding binding) {
	}

}
