package io.github.mcpgateway.virtual;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * The virtual sessions of this replica, by the session id the gateway gave the client:
 * bounded in number, each forgotten after the session idle timeout without use. The ids
 * are 128 random bits; a client cannot guess another's.
 *
 * <p>
 * This increment keeps them in memory only: a client whose requests reach another replica
 * must initialise again there (ADR 0021 names the Redis store that lifts this).
 */
final class VirtualSessions {

	private final SecureRandom random = new SecureRandom();

	private final Cache<String, VirtualSession> sessions;

	VirtualSessions(int maxSessions, Duration idleTimeout, GatewayClock clock) {
		this.sessions = Caffeine.newBuilder()
			.maximumSize(maxSessions)
			.expireAfterAccess(idleTimeout)
			.ticker(clock.ticker())
			.build();
	}

	/** Stores {@code session} under a new id, which it returns. */
	String open(VirtualSession session) {
		byte[] id = new byte[16];
		this.random.nextBytes(id);
		String sessionId = HexFormat.of().formatHex(id);
		this.sessions.put(sessionId, session);
		return sessionId;
	}

	@Nullable VirtualSession find(String sessionId) {
		return this.sessions.getIfPresent(sessionId);
	}

	void update(String sessionId, VirtualSession session) {
		this.sessions.asMap().replace(sessionId, session);
	}

	@Nullable VirtualSession remove(String sessionId) {
		return this.sessions.asMap().remove(sessionId);
	}

}
