package io.github.mcpgateway.session;

import org.jspecify.annotations.Nullable;

/**
 * Where session bindings live ({@code gateway.session.store}): in this process
 * ({@link InMemorySessionStore}) or in Redis, shared by every replica and surviving
 * restarts ({@link RedisSessionStore}).
 *
 * <p>
 * Contract: only the owner's use of a binding keeps it alive (someone replaying a stolen
 * id must not); a binding unused for the idle timeout is gone. A store that cannot answer
 * throws {@link SessionStoreException} from {@link #use}, and the request that carried
 * the session fails closed; {@link #bind} and {@link #remove} never fail a request.
 */
interface SessionStore {

	/**
	 * Binds {@code sessionId} unless it is already bound; returns whether it was new.
	 */
	boolean bind(String sessionId, SessionBinding binding);

	/**
	 * The binding of {@code sessionId}, refreshed if it belongs to {@code owner};
	 * {@code null} if unknown or idle too long.
	 * @throws SessionStoreException if the store cannot answer
	 */
	@Nullable SessionBinding use(String sessionId, SessionBinding owner);

	/**
	 * Removes the binding; returns it, or {@code null} if there was none (or unknown).
	 */
	@Nullable SessionBinding remove(String sessionId);

	/** Bindings held, or {@code -1} when the store does not count them. */
	long size();

	/** The store's name, as {@code gateway.session.store} spells it. */
	String type();

}
