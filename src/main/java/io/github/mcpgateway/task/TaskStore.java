package io.github.mcpgateway.task;

import java.util.Collection;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Where task bindings live: in this process ({@link InMemoryTaskStore}) or in Redis,
 * shared by every replica ({@link RedisTaskStore}); the same choice as
 * {@code gateway.session.store}.
 *
 * <p>
 * Contract, for every implementation:
 * <ul>
 * <li>Bounded: at most {@code max-bindings-per-principal} bindings and reservations per
 * principal and {@code max-bindings} in all. A call that may create a task first
 * {@link #reserve reserves} a place; at a cap it is refused before dispatch, so a task is
 * never created and then left unbound for want of room.</li>
 * <li>A reservation ends once: {@link #bind} turns it into a binding, {@link #release}
 * gives it back. A binding is never evicted to make room; it leaves when it expires.</li>
 * <li>A binding, once written, keeps its first owner: binding a task id again (a replayed
 * creation) never moves it to someone else.</li>
 * <li>{@link #reserve}, {@link #find} and {@link #owned} throw {@link TaskStoreException}
 * when the store cannot answer, and the request fails closed. {@link #bind} and
 * {@link #release} never fail a request: the upstream has answered by then.</li>
 * </ul>
 * Task ids are hashed with the server's identity before they are stored; a store never
 * keeps a raw task id.
 */
public interface TaskStore {

	/**
	 * Reserves room for one binding of {@code principal}; {@code null} when a cap is
	 * reached.
	 * @throws TaskStoreException if the store cannot answer
	 */
	@Nullable Reservation reserve(McpPrincipal principal);

	/** Turns {@code reservation} into the binding of {@code taskId}. */
	void bind(Reservation reservation, String taskId, TaskBinding binding);

	/** Gives back a reservation that created no task. */
	void release(Reservation reservation);

	/**
	 * The live binding of {@code taskId} on {@code server}, or {@code null}.
	 * @throws TaskStoreException if the store cannot answer
	 */
	@Nullable TaskBinding find(String server, String taskId);

	/**
	 * Which of {@code taskIds} on {@code server} are bound to {@code principal}.
	 * @throws TaskStoreException if the store cannot answer
	 */
	Set<String> owned(String server, McpPrincipal principal, Collection<String> taskIds);

	/**
	 * The secret that seals {@code tasks/list} cursors ({@link TaskCursor}): 32 random
	 * bytes, made on first use and the same for every replica that shares the store, so
	 * that a cursor one replica sealed opens on another.
	 * @throws TaskStoreException if the store cannot answer
	 */
	byte[] cursorSecret();

	/** Live bindings, or {@code -1} when the store cannot count them now. */
	long size();

	/** The store's name, as {@code gateway.session.store} spells it. */
	String type();

	/**
	 * Room held for one binding until the call that may create a task has its answer.
	 *
	 * @param id unique per reservation
	 * @param principal the principal's store key
	 */
	record Reservation(String id, String principal) {
	}

}
