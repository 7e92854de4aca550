package io.github.mcpgateway.virtual;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The virtual sessions of this replica ({@code gateway.session.store: memory}): bounded
 * by {@code gateway.session.max-bindings} (past it the least recently used is dropped and
 * its client gets 404), each forgotten after the session idle timeout without its owner's
 * use. A client whose requests reach another replica must initialise again there.
 */
final class InMemoryVirtualSessionStore implements VirtualSessionStore {

	private final VirtualSessionIds ids = new VirtualSessionIds();

	private final Cache<String, VirtualSession> sessions;

	InMemoryVirtualSessionStore(int maxSessions, Duration idleTimeout, GatewayClock clock) {
		this.sessions = Caffeine.newBuilder()
			.maximumSize(maxSessions)
			.expireAfterAccess(idleTimeout)
			.ticker(clock.ticker())
			.build();
	}

	@Override
	public String open(VirtualSession session) {
		String sessionId = this.ids.next();
		this.sessions.put(sessionId, session);
		return sessionId;
	}

	@Override
	public @Nullable VirtualSession find(String sessionId, String virtualUid, McpPrincipal principal) {
		// Read quietly first: a stranger's look-up must not renew the session.
		VirtualSession session = this.sessions.policy().getIfPresentQuietly(sessionId);
		if (session == null || !session.ownedBy(virtualUid, principal)) {
			return null;
		}
		return this.sessions.getIfPresent(sessionId);
	}

	@Override
	public void update(String sessionId, VirtualSession session) {
		this.sessions.asMap().replace(sessionId, session);
	}

	@Override
	public @Nullable VirtualSession remove(String sessionId) {
		return this.sessions.asMap().remove(sessionId);
	}

}
