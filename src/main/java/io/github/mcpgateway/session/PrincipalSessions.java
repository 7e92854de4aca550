package io.github.mcpgateway.session;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The session ids of each human, in order of last use by their owner, for the cap on
 * sessions per human ({@code gateway.session.max-per-principal}). Not thread-safe: the
 * memory store calls it under its table's lock, in step with the table.
 *
 * <p>
 * Design notes. Keyed on the human alone (the agent part of a principal is often the
 * client's choice), so one human's flood of {@code initialize} pushes out only that
 * human's own least recently used sessions, never another's: without it, 23,000
 * {@code initialize} of one principal pushed every other principal's session out of the
 * global LRU table (issue 36). A human has an entry only while it has sessions; the whole
 * structure holds no more ids than the table.
 */
final class PrincipalSessions {

	private final int maxPerHuman;

	private final Map<String, LinkedHashSet<String>> byHuman = new HashMap<>();

	PrincipalSessions(int maxPerHuman) {
		this.maxPerHuman = maxPerHuman;
	}

	/**
	 * Records a new session of {@code human}; returns the id of that human's least
	 * recently used session when this one takes it past the cap, for the table to drop.
	 */
	@Nullable String added(@Nullable String human, String sessionId) {
		if (human == null) {
			return null;
		}
		LinkedHashSet<String> sessions = this.byHuman.computeIfAbsent(human, (key) -> new LinkedHashSet<>());
		sessions.add(sessionId);
		if (sessions.size() <= this.maxPerHuman) {
			return null;
		}
		Iterator<String> eldest = sessions.iterator();
		String dropped = eldest.next();
		eldest.remove();
		return dropped;
	}

	/** Moves {@code sessionId} to the most recently used of {@code human}'s sessions. */
	void used(@Nullable String human, String sessionId) {
		LinkedHashSet<String> sessions = (human != null) ? this.byHuman.get(human) : null;
		if (sessions != null && sessions.remove(sessionId)) {
			sessions.add(sessionId);
		}
	}

	/** Forgets {@code sessionId}, which left the table. */
	void removed(@Nullable String human, String sessionId) {
		LinkedHashSet<String> sessions = (human != null) ? this.byHuman.get(human) : null;
		if (sessions != null && sessions.remove(sessionId) && sessions.isEmpty()) {
			this.byHuman.remove(human);
		}
	}

	/** Sessions of {@code human}. */
	int count(String human) {
		LinkedHashSet<String> sessions = this.byHuman.get(human);
		return (sessions != null) ? sessions.size() : 0;
	}

}
