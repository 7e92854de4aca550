package io.github.mcpgateway.virtual;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.session.SessionStoreException;

/**
 * Where virtual sessions live, by the session id the gateway gave the client: beside the
 * member sessions' bindings, as {@code gateway.session.store} says. In this process
 * ({@link InMemoryVirtualSessionStore}) or in Redis, where every replica serves every
 * request of a virtual session ({@link RedisVirtualSessionStore}).
 *
 * <p>
 * Contract (the session store's, {@code session.SessionStore}): ids are 128 random bits,
 * which a client cannot guess; a session is found only by its owner (its virtual server
 * and principal), and only the owner's use keeps it alive; a session unused for
 * {@code gateway.session.idle-timeout} is gone. A store that cannot answer throws
 * {@link SessionStoreException} from {@link #find}, and the request fails closed with 503
 * {@code session_store_unavailable}; {@link #open}, {@link #update} and {@link #remove}
 * never fail a request.
 */
interface VirtualSessionStore {

	/** Stores {@code session} under a new id, which it returns. */
	String open(VirtualSession session);

	/**
	 * The session {@code sessionId} if it is {@code principal}'s on the virtual server
	 * {@code virtualUid}, its idle timeout renewed; {@code null} if unknown, idle too
	 * long or someone else's.
	 * @throws SessionStoreException if the store cannot answer
	 */
	@Nullable VirtualSession find(String sessionId, String virtualUid, McpPrincipal principal);

	/**
	 * Replaces the session {@code sessionId}, if it still exists, with {@code session}.
	 */
	void update(String sessionId, VirtualSession session);

	/** Removes the session; returns it, or {@code null} if there was none. */
	@Nullable VirtualSession remove(String sessionId);

}
